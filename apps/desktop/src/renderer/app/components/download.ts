import type { TillExportDownload } from '../../data/api.ts';

/** Hands the file to the browser as a download. */
export function download(file: TillExportDownload): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
