/** Categories: how the catalogue is grouped (and the till's category tabs); add, rename, archive. */
import { useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useAction } from '../../action.ts';
import { CursorListView, useCursorList } from '../../components/CursorList.tsx';
import { useI18n } from '../../i18n/index.ts';
import { Message } from '../../shared.ts';
import { type Category } from './model.ts';

export function Categories() {
  const { t } = useI18n();
  const list = useCursorList<Category>('/v1/retail/categories');
  return (
    <>
      <NameForm
        title={t('newCategory')}
        label={t('categoryName')}
        testId="new-category"
        onSubmit={async (name) => {
          await api.post('/v1/retail/categories', { name });
          list.reload();
        }}
      />
      <CursorListView list={list} empty={t('noCategories')}>
        {(rows) => (
          <ul className="stack" data-testid="category-list" style={{ listStyle: 'none', padding: 0 }}>
            {rows.map((category) => (
              <CategoryRow key={category.id} category={category} onChanged={list.reload} />
            ))}
          </ul>
        )}
      </CursorListView>
    </>
  );
}

function CategoryRow({ category, onChanged }: { category: Category; onChanged: () => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(category.name);
  const { busy, error, run } = useAction();
  const rename = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.patch(`/v1/retail/categories/${category.id}`, { name });
      onChanged();
    });
  };
  return (
    <li className="card" data-testid="category">
      <form className="filters" onSubmit={rename}>
        <label>
          {t('categoryName')}
          <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
        </label>
        <button type="submit" disabled={busy || name.trim() === '' || name === category.name}>
          {t('save')}
        </button>
        <button
          type="button"
          className="ghost danger"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await api.delete(`/v1/retail/categories/${category.id}`);
              onChanged();
            })
          }
        >
          {t('archive')}
        </button>
      </form>
      <Message text={error} />
    </li>
  );
}

/** A one-field form that makes something by its name (a category, a store). */
export function NameForm({
  title,
  label,
  testId,
  onSubmit,
  children,
}: {
  title: string;
  label: string;
  testId: string;
  onSubmit: (name: string) => Promise<void>;
  children?: React.ReactNode;
}) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await onSubmit(name.trim());
      setName('');
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      <div className="filters">
        <label>
          {label}
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
            maxLength={200}
            data-testid={`${testId}-name`}
          />
        </label>
        {children}
        <button
          type="submit"
          className="primary"
          disabled={busy || name.trim() === ''}
          data-testid={`${testId}-submit`}
        >
          {t('add')}
        </button>
      </div>
      <Message text={error} />
    </form>
  );
}
