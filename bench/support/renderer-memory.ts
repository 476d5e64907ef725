/**
 * Memory of Chromium's renderer processes, from Linux /proc: each renderer
 * under a process, the page's own renderer (found by its CPU time), and their
 * resident, proportional and private sizes.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';

export interface Memory {
  /** Resident: pages shared between processes are counted once in each (`VmRSS`). */
  rss: number;
  /** Proportional: a shared page split between the processes that map it (`Pss`). */
  pss: number;
  /** Private: memory no other process maps (`RssAnon` + `VmSwap`, Chromium's "memory footprint"). */
  own: number;
}

/** Memory of each Chromium renderer process under `rootPid`, by pid, in MB (Linux /proc). */
export function rendererMemory(rootPid: number): Map<number, Memory> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const renderers = new Map<number, Memory>();
  const kb = (text: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      try {
        if (fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--type=renderer')) {
          const status = fs.readFileSync(`/proc/${child}/status`, 'utf8');
          renderers.set(child, {
            rss: kb(status, 'VmRSS') / 1024,
            pss: kb(fs.readFileSync(`/proc/${child}/smaps_rollup`, 'utf8'), 'Pss') / 1024,
            own: (kb(status, 'RssAnon') + kb(status, 'VmSwap')) / 1024,
          });
        }
      } catch {
        // exited meanwhile
      }
      walk(child);
    }
  };
  walk(rootPid);
  return renderers;
}

/** CPU time (utime + stime, in clock ticks) of each renderer process under `rootPid`. */
export function rendererCpu(rootPid: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of rendererMemory(rootPid).keys()) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // exited meanwhile
    }
  }
  return cpu;
}

/**
 * The page's own renderer process: the one whose CPU time grows while the page spins for
 * 300 ms (Chromium reuses a spare renderer for a new page, so "the newest" would be wrong).
 */
export async function pageRenderer(page: Page, rootPid: number): Promise<number> {
  const before = rendererCpu(rootPid);
  await page.evaluate(() => {
    const end = performance.now() + 300;
    while (performance.now() < end) {
      // spin
    }
  });
  let busiest = { pid: -1, ticks: -1 };
  for (const [pid, ticks] of rendererCpu(rootPid)) {
    const grew = ticks - (before.get(pid) ?? 0);
    if (grew > busiest.ticks) busiest = { pid, ticks: grew };
  }
  return busiest.pid;
}

/** Memory of the page's renderer process, and of all renderers (with the spare ones Chromium keeps) summed. */
export function pageMemory(rootPid: number, pagePid: number): { page: Memory; all: Memory } {
  const none: Memory = { rss: NaN, pss: NaN, own: NaN };
  const now = rendererMemory(rootPid);
  const all = [...now.values()].reduce(
    (total, one) => ({ rss: total.rss + one.rss, pss: total.pss + one.pss, own: total.own + one.own }),
    { rss: 0, pss: 0, own: 0 },
  );
  return { page: now.get(pagePid) ?? none, all };
}
