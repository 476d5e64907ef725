/**
 * The catalogue as a CSV file: import one chosen on this computer (every
 * problem shown by row and column in the page's language, and nothing
 * imported; or what was imported), and download the export.
 */
import { useState, type FormEvent } from 'react';
import { readCsvErrorField, readCsvProblem, type CsvProblem } from '@tz/core/retail/catalogue-csv-problems';
import { api, ApiError } from '../../api.ts';
import { useAction } from '../../action.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.ts';
import { formatCount, Message } from '../../shared.ts';

interface ImportResult {
  rows: number;
  created: number;
  updated: number;
  archived: number;
  unchanged: number;
  categories_created: number;
}
interface Problem {
  row: number;
  column: string;
  text: string;
}

export function ImportExport() {
  const { t } = useI18n();
  const { busy, error, run } = useAction();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);

  /** The server's sentence in the page's language: core's problems are known by their English text. */
  const say = (text: string) => {
    const known = readCsvProblem(text);
    if (!known) return text;
    const params = Object.fromEntries(
      Object.entries(known.params).map(([name, value]: [string, number]) => [name, formatCount(value)]),
    );
    return t(`csv_${known.problem satisfies CsvProblem}` as MessageKey, params);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setResult(null);
    setProblems(null);
    void run(async () => {
      const csv = await file.text();
      try {
        setResult(await api.post<ImportResult>('/v1/retail/products/import', { csv }));
      } catch (failure) {
        const rows =
          failure instanceof ApiError && failure.code === 'parameter_invalid'
            ? Object.entries(failure.details).flatMap(([field, text]) => {
                const at = readCsvErrorField(field);
                return at ? [{ ...at, text: say(text) }] : [];
              })
            : [];
        if (rows.length === 0) throw failure;
        setProblems(rows);
      }
    });
  };

  return (
    <>
      <form className="card stack" onSubmit={submit} aria-labelledby="import-title" data-testid="import">
        <h2 id="import-title">{t('importTitle')}</h2>
        <p className="muted">{t('importLead')}</p>
        <div className="filters">
          <label>
            {t('csvFile')}
            <input
              type="file"
              accept=".csv,text/csv"
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              data-testid="import-file"
            />
          </label>
          <button type="submit" className="primary" disabled={busy || !file} data-testid="import-submit">
            {busy ? t('importing') : t('importFile')}
          </button>
        </div>
        <Message text={error} />
        {result && (
          <p role="status" data-testid="import-result">
            {t('importDone', {
              rows: formatCount(result.rows),
              created: formatCount(result.created),
              updated: formatCount(result.updated),
              archived: formatCount(result.archived),
              unchanged: formatCount(result.unchanged),
              categories: formatCount(result.categories_created),
            })}
          </p>
        )}
        {problems && <Problems problems={problems} />}
      </form>
      <section className="card stack" aria-labelledby="export-title">
        <h2 id="export-title">{t('exportTitle')}</h2>
        <p className="muted">{t('exportLead')}</p>
        <div>
          {/* The session's cookie goes with a link of this origin; `download` keeps the page. */}
          <a
            className="button primary"
            href="/v1/retail/products/export"
            download="catalogue.csv"
            data-testid="export"
          >
            {t('exportFile')}
          </a>
        </div>
      </section>
    </>
  );
}

function Problems({ problems }: { problems: Problem[] }) {
  const { t } = useI18n();
  return (
    <div className="stack">
      <p className="warn strong" role="alert" data-testid="import-refused">
        {t('importRefused', { count: formatCount(problems.length) })}
      </p>
      {/* A long list of problems scrolls within the page. */}
      <div className="import-errors">
        <DataTable
          caption={t('importProblems')}
          testId="import-errors"
          className="retail-table"
          columns={[{ label: t('row'), num: true }, t('column'), t('problem')]}
        >
          {problems.map((problem) => (
            <tr key={`${problem.row} ${problem.column}`} data-testid="import-error">
              <th scope="row" className="num">
                {formatCount(problem.row)}
              </th>
              <td>{problem.column || <span className="muted">{t('wholeRow')}</span>}</td>
              <td className="grow">{problem.text}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </div>
  );
}
