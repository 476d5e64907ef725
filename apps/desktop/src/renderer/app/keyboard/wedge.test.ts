import { describe, expect, it } from 'vitest';
import { WedgeDetector, type WedgeVerdict } from './wedge.ts';

/** Types `text` then Enter with `gaps[i]` ms before each key (the last gap is before Enter). */
function type(
  detector: WedgeDetector,
  text: string,
  gap: number | ((index: number) => number),
  start = 1000,
): WedgeVerdict {
  let at = start;
  const keys = [...text, 'Enter'];
  let verdict: WedgeVerdict = { kind: 'pass' };
  keys.forEach((key, index) => {
    at += typeof gap === 'number' ? gap : gap(index);
    verdict = detector.key(key, at);
  });
  return verdict;
}

describe('keyboard-wedge detection', () => {
  it('takes a barcode typed a few ms per character and ended with Enter as a scan', () => {
    expect(type(new WedgeDetector(), '6201234567890', 8)).toEqual({ kind: 'scan', code: '6201234567890' });
  });

  it('leaves a person typing a search word and pressing Enter alone', () => {
    expect(type(new WedgeDetector(), 'sukari', 120)).toEqual({ kind: 'pass' });
  });

  it('leaves a fast typist (60 ms a key) entering a long number alone', () => {
    expect(type(new WedgeDetector(), '1234567890', 60)).toEqual({ kind: 'pass' });
  });

  it('does not take a short quick burst (a PIN or a quantity) as a scan', () => {
    expect(type(new WedgeDetector(), '123', 5)).toEqual({ kind: 'pass' });
  });

  it('takes only the quick tail when a person typed first and a scan followed', () => {
    const detector = new WedgeDetector();
    let at = 0;
    for (const key of 'ab') detector.key(key, (at += 150));
    at += 400;
    for (const key of '40012345') detector.key(key, (at += 6));
    expect(detector.key('Enter', at + 6)).toEqual({ kind: 'scan', code: '40012345' });
  });

  it('ignores Shift between characters of a scan (upper-case codes)', () => {
    const detector = new WedgeDetector();
    let at = 0;
    for (const key of ['Shift', 'A', 'B', 'Shift', 'C', '1', '2']) detector.key(key, (at += 4));
    expect(detector.key('Enter', at + 4)).toEqual({ kind: 'scan', code: 'ABC12' });
  });

  it('does not scan when Enter comes long after a quick burst', () => {
    expect(type(new WedgeDetector(), '1234567', (index) => (index === 7 ? 600 : 5))).toEqual({
      kind: 'pass',
    });
  });

  it('starts afresh after each Enter', () => {
    const detector = new WedgeDetector();
    expect(type(detector, '11112222', 5, 0)).toMatchObject({ kind: 'scan' });
    expect(detector.key('Enter', 60)).toEqual({ kind: 'pass' });
  });
});
