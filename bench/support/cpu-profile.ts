/**
 * Where a page's time goes, from CDP Profiler samples: `BENCH_PROFILE=<dir>`
 * in `bench/till.ts` profiles every other scan and sale (those are left out of
 * the timings) and adds their samples up here, by function (self time) and by
 * the till's own functions on the stack (total time).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export class ProfileTally {
  private self = new Map<string, number>();
  private total = new Map<string, number>();
  private sampled = 0;
  private kept = 0;

  constructor(
    readonly name: string,
    readonly dir: string,
  ) {}

  async around<T>(cdp: CDPSession, work: () => Promise<T>): Promise<T> {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    const result = await work();
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    this.add(profile);
    return result;
  }

  private add(profile: Profile): void {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const label = (node: ProfileNode) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url ? url.split('/').pop() : '';
      return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
    };
    profile.samples.forEach((id, i) => {
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const node = byId.get(id)!;
      const own = label(node);
      this.self.set(own, (this.self.get(own) ?? 0) + ms);
      this.sampled += ms;
      if (node.callFrame.functionName !== '(idle)') this.kept += ms;
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const key = label(byId.get(at)!);
        if (seen.has(key)) continue;
        seen.add(key);
        this.total.set(key, (this.total.get(key) ?? 0) + ms);
      }
    });
    if (!fs.existsSync(path.join(this.dir, `${this.name}.cpuprofile`))) {
      fs.mkdirSync(this.dir, { recursive: true });
      fs.writeFileSync(path.join(this.dir, `${this.name}.cpuprofile`), JSON.stringify(profile));
    }
  }

  report(count: number, top = 40): string {
    const rows = (map: Map<string, number>) =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([key, ms]) => `  ${(ms / count).toFixed(2).padStart(8)} ms  ${key}`)
        .join('\n');
    return [
      `${this.name}: ${count} profiled, per one: ${(this.sampled / count).toFixed(1)} ms sampled, ${(this.kept / count).toFixed(1)} ms not idle`,
      'self:',
      rows(this.self),
      'total (on the stack):',
      rows(this.total),
    ].join('\n');
  }

  write(count: number): void {
    fs.mkdirSync(this.dir, { recursive: true });
    fs.writeFileSync(path.join(this.dir, `${this.name}.txt`), this.report(count, 120));
  }
}
