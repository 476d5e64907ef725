/**
 * Pure text layout for fixed-width receipt paper. Text given here is already
 * printable (see toPrintable), so one character is one column.
 */
import { shopDateTime } from '@tz/core/time';

/** Splits text into lines of at most `width` columns, breaking at spaces where it can. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let rest = paragraph.trimEnd();
    if (rest.length === 0) {
      lines.push('');
      continue;
    }
    while (rest.length > width) {
      const space = rest.lastIndexOf(' ', width);
      const cut = space > 0 ? space : width;
      lines.push(rest.slice(0, cut).trimEnd());
      rest = rest.slice(cut).trimStart();
    }
    if (rest.length > 0) lines.push(rest);
  }
  return lines;
}

/**
 * A left text and a right-aligned value on one line. When they do not fit,
 * the left text wraps and the value goes on its last line, so amounts always
 * stay right-aligned in their column.
 */
export function leftRight(left: string, right: string, width: number): string[] {
  const room = width - right.length - 1;
  if (room < 1) return [...wrap(left, width), right.padStart(width)];
  const lines = wrap(left, room);
  const last = lines.pop() ?? '';
  return [...lines, last.padEnd(room) + ' ' + right];
}

export function rule(width: number, char = '-'): string {
  return char.repeat(width);
}

/** "2026-11-25T14:03:00+03:00" -> "25/11/2026 14:03" (core's `shopDateTime`); any other text as it is. */
export function formatIssuedAt(iso: string): string {
  const at = shopDateTime(iso);
  return at ? `${at.date} ${at.time}` : iso;
}
