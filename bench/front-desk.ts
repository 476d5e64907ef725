/**
 * The till's front desk in Debian's Chromium against the server on PostgreSQL,
 * one run, one machine: the room board of a 200-room property (10 types of 20
 * rooms on 10 floors, 10,000 stays over 2027, each room's back to back, a
 * tenth canceled, and today's arrivals, departures and guests in house) on
 * screen after a change.
 *
 * - Own step: a room picked on the board, F7, and a housekeeping state clicked
 *   (clean and dirty in turn, a different room each time): the click (its
 *   pointerdown, in the capture phase) to the room's new state on the board in
 *   the DOM, and to the next animation frame (on screen).
 * - From the server: a room's housekeeping changed through the API (online,
 *   the live stream's hint, then the pull): the moment the API answered to
 *   the room's new state on the board, in the DOM. The till's pull and the
 *   network are in it.
 * - Floors: a bare page in the same browser with 200 rooms as buttons and a
 *   click that changes one room's state (click to DOM and to the next frame);
 *   and the least a durable step costs, a bare IndexedDB put of a command-sized
 *   document in the till's page (the till writes each step before it shows).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/front-desk.ts
 *
 * BENCH_CHANGES (default 40): own steps and server changes each.
 */
import os from 'node:os';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { ensureWebBuild } from '../apps/desktop/scripts/ensure-web-build.ts';
import { startBenchServer } from './support/bench-server.ts';
import { copyStaysOver2027 } from './support/hotel-stays.ts';
import { launchChromium } from '../test/support/browser.ts';
import { typeTimed } from '../test/support/keyboard.ts';
import { benchDatabase, jsonCaller, progress, quantile, signUpMerchant, summary } from './support/harness.ts';

const baseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CHANGES = Number(process.env.BENCH_CHANGES ?? 40);
const TYPES = 10;
const ROOMS_PER_TYPE = 20;
const STAYS_PER_ROOM = 50;
const PIN = '4821';

await ensureWebBuild();
const database = await benchDatabase(baseUrl, 'bench_front_desk');
const server = await startBenchServer(database.url);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
const browser = await launchChromium();
try {
  const { headers } = await signUpMerchant(server.url, 'Bench Lodge');
  const call = jsonCaller(server.url, headers);

  const store = (await call('PATCH', '/v1/retail/store', { name: 'Mapokezi' })).id;
  await call('POST', '/v1/employees', { name: 'Neema', role: 'cashier', stores: [store], pin: PIN });
  await call('PATCH', '/v1/hospitality/property', { name: 'Bench Lodge', star_rating: 3 });
  const roomIds: string[] = [];
  for (let type = 0; type < TYPES; type += 1) {
    const roomType = await call('POST', '/v1/hospitality/room-types', {
      name: `Type ${type}`,
      base_rate: 60_000 + type * 10_000,
      max_adults: 3,
    });
    for (let room = 0; room < ROOMS_PER_TYPE; room += 1)
      roomIds.push(
        (
          await call('POST', '/v1/hospitality/rooms', {
            room_type: roomType.id,
            number: `${room + 1}${String(type).padStart(2, '0')}`,
            floor: String((room % 10) + 1),
          })
        ).id,
      );
  }
  // Today's desk: a stay arriving, one in house and one leaving in a room in ten; then 10,000 stays over 2027.
  const today = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);
  const day = (offset: number) =>
    new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  for (let index = 0; index < roomIds.length; index += 10) {
    const [arrival, departure] =
      index % 30 === 0 ? [day(0), day(2)] : index % 30 === 10 ? [day(-1), day(1)] : [day(-2), day(0)];
    const room = await call<{ room_type: string }>('GET', `/v1/hospitality/rooms/${roomIds[index]}`);
    const stay = await call('POST', '/v1/hospitality/reservations', {
      room_type: room.room_type,
      room: roomIds[index],
      arrival,
      departure,
      guest: { name: `Mgeni ${index}` },
    }).catch(() => null);
    if (stay && arrival < today)
      await pool.query(
        `UPDATE hospitality_reservations SET status = 'checked_in', checked_in_at = now() WHERE id = $1`,
        [stay.id],
      );
  }
  const template = (await pool.query<{ id: string }>(`SELECT id FROM hospitality_reservations LIMIT 1`))
    .rows[0]!;
  await copyStaysOver2027(pool, template.id, STAYS_PER_ROOM);
  const stays = (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM hospitality_reservations`))
    .rows[0]!.n;
  progress(`seeded ${roomIds.length} rooms and ${stays} stays`);

  // The till: paired, signed in, its shift open, on the desk with every room on the board.
  const till = await call<{ pairing_url: string }>('POST', '/v1/tills', { name: 'Mapokezi 1', store });
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const synced = performance.now();
  await page.goto(String(till.pairing_url));
  await page.waitForSelector('[data-testid=sign-in-screen]', { timeout: 120_000 });
  for (let i = 0; !(await page.$('[data-testid=open-shift-screen]')); i++) {
    if (i > 30) throw new Error('sign-in never opened the shift screen');
    const pad = await page.$('[data-testid=sign-in-screen] input');
    if (pad && (await pad.inputValue()) === '') await typeTimed(page, PIN, 150);
    await page.waitForSelector('[data-testid=open-shift-screen]', { timeout: 1000 }).catch(() => undefined);
  }
  await typeTimed(page, '20000', 150);
  await page.click('[data-testid=mode-desk]', { timeout: 120_000 });
  await page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid=room]').length === n,
    roomIds.length,
    {
      timeout: 120_000,
    },
  );
  const toBoardMs = performance.now() - synced;
  const localStays = await page.evaluate(() => document.querySelectorAll('[data-testid=desk-stay]').length);
  progress(`board of ${roomIds.length} rooms on screen ${(toBoardMs / 1000).toFixed(1)} s after pairing`);

  /** In the page: resolves when `selector` matches, with the page times of the DOM change and the next frame. */
  const watch = (target: Page, selector: string) =>
    target.evaluate((selector) => {
      const w = window as unknown as { benchWatch: Promise<{ dom: number; frame: number }> };
      w.benchWatch = new Promise((resolve) => {
        const check = () => {
          if (!document.querySelector(selector)) return false;
          const dom = performance.now();
          observer.disconnect();
          requestAnimationFrame(() => resolve({ dom, frame: performance.now() }));
          return true;
        };
        const observer = new MutationObserver(check);
        if (!check()) observer.observe(document.body, { childList: true, subtree: true, attributes: true });
      });
    }, selector);
  const watched = (target: Page) =>
    target.evaluate(
      () => (window as unknown as { benchWatch: Promise<{ dom: number; frame: number }> }).benchWatch,
    );
  const stampClicks = (target: Page) =>
    target.evaluate(() => {
      const w = window as unknown as { benchClick: number };
      window.addEventListener('pointerdown', () => (w.benchClick = performance.now()), true);
    });
  const lastClick = (target: Page) =>
    target.evaluate(() => (window as unknown as { benchClick: number }).benchClick);

  // 1. The desk's own step: F7 on a picked room, a state clicked.
  await stampClicks(page);
  const ownDom: number[] = [];
  const ownFrame: number[] = [];
  const vacant = await page.$$eval('[data-testid=room][data-state=vacant_clean]', (rooms) =>
    rooms.map((room) => room.getAttribute('data-room')!),
  );
  for (let index = 0; index < CHANGES; index += 1) {
    const number = vacant[index % vacant.length]!;
    const room = `[data-testid=room][data-room="${number}"]`;
    const next = (await page.getAttribute(room, 'data-state')) === 'vacant_dirty' ? 'clean' : 'dirty';
    await page.click(room);
    await page.keyboard.press('F7');
    await page.waitForSelector('[data-testid=housekeeping]');
    await watch(page, `${room}[data-state=${next === 'dirty' ? 'vacant_dirty' : 'vacant_clean'}]`);
    await page.click(`[data-testid=housekeeping-set][data-status=${next}]`);
    const seen = await watched(page);
    const clicked = await lastClick(page);
    ownDom.push(seen.dom - clicked);
    ownFrame.push(seen.frame - clicked);
    await page.waitForSelector('[data-testid=housekeeping]', { state: 'detached' });
  }
  progress(`own steps: DOM p50/p99/max ${summary(ownDom)} ms`);

  // 2. A change from the server: the API marks a room, the live stream and the pull bring it.
  const fromServer: number[] = [];
  const numberOf = new Map(
    (await pool.query<{ id: string; number: string }>(`SELECT id, number FROM hospitality_rooms`)).rows.map(
      (r) => [r.id, r.number],
    ),
  );
  for (let index = 0; index < CHANGES; index += 1) {
    const id = roomIds[(index * 7 + 3) % roomIds.length]!;
    const room = `[data-testid=room][data-room="${numberOf.get(id)}"]`;
    const state = await page.getAttribute(room, 'data-state');
    if (state !== 'vacant_clean' && state !== 'vacant_dirty') continue;
    const next = state === 'vacant_dirty' ? 'clean' : 'dirty';
    await watch(page, `${room}[data-state=${next === 'dirty' ? 'vacant_dirty' : 'vacant_clean'}]`);
    await call('PATCH', `/v1/hospitality/rooms/${id}`, { housekeeping: next });
    const answered = await page.evaluate(() => performance.now());
    const seen = await watched(page);
    fromServer.push(seen.dom - answered);
  }
  progress(`server changes: DOM p50/p99/max ${summary(fromServer)} ms`);

  // Floor: a bare page, 200 rooms, a click that changes one.
  const bare = await context.newPage();
  await bare.setContent(
    `<div id="board">${roomIds.map((_, i) => `<button class="room" data-room="${i}" data-state="vacant_clean">${i}</button>`).join('')}</div>
     <script>document.getElementById('board').addEventListener('click', (e) => {
       const room = e.target.closest('.room'); room.dataset.state = room.dataset.state === 'vacant_clean' ? 'vacant_dirty' : 'vacant_clean';
       room.textContent = room.dataset.room + ' ' + room.dataset.state; });</script>`,
  );
  await stampClicks(bare);
  const floorDom: number[] = [];
  const floorFrame: number[] = [];
  for (let index = 0; index < CHANGES; index += 1) {
    const room = `.room[data-room="${index}"]`;
    await watch(bare, `${room}[data-state=vacant_dirty]`);
    await bare.click(room);
    const seen = await watched(bare);
    const clicked = await lastClick(bare);
    floorDom.push(seen.dom - clicked);
    floorFrame.push(seen.frame - clicked);
  }

  // Floor of a durable step: a bare IndexedDB put of a command-sized document, in the till's page.
  const putFloor = await page.evaluate(async (count) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('bench-put-floor');
      request.onupgradeneeded = () => request.result.createObjectStore('docs', { keyPath: 'id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB did not open'));
    });
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const tx = db.transaction('docs', 'readwrite');
      tx.objectStore('docs').put({
        id: `cmd_${i}`,
        type: 'room.housekeeping',
        payload: { room: 'room_x', housekeeping: 'dirty', at: i },
        status: 'pending',
        created_at: Date.now(),
        padding: 'x'.repeat(600),
      });
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error ?? new Error('put failed'));
      });
      times.push(performance.now() - started);
    }
    db.close();
    return times;
  }, CHANGES);

  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const ratio = (values: number[], floor: number[]) =>
    (quantile(values, 0.99) / quantile(floor, 0.99)).toFixed(1);
  console.log(
    `\n${new Date().toISOString()} · ${os.cpus().length} × ${cpu} · load ${os.loadavg()[0]!.toFixed(1)} · Node ${process.version} · ${roomIds.length} rooms, ${stays} stays on the server, ${localStays} on today's lists\n`,
  );
  console.log('| Change to the board (ms) | p50 | p99 | max | p99 against the bare page |');
  console.log('| --- | --- | --- | --- | --- |');
  console.log(
    `| Own step (F7, a state clicked): click to DOM | ${summary(ownDom)} | ${ratio(ownDom, floorDom)}× |`,
  );
  console.log(
    `| Own step: click to the next frame (on screen) | ${summary(ownFrame)} | ${ratio(ownFrame, floorFrame)}× |`,
  );
  console.log(`| From the server (API, live hint, pull): answered to DOM | ${summary(fromServer)} | — |`);
  console.log(`| Floor: bare page, 200 rooms, click to DOM | ${summary(floorDom)} | 1× |`);
  console.log(`| Floor: bare page, click to the next frame | ${summary(floorFrame)} | 1× |`);
  console.log(
    `| Floor: an IndexedDB put of a command, in the till's page | ${summary(putFloor)} | own step's p99 ${ratio(ownDom, putFloor)}× it |`,
  );
  console.log(
    `\nBoard on screen ${(toBoardMs / 1000).toFixed(1)} s after opening the pairing URL (first sync, sign-in, float).`,
  );
  if (errors.length > 0) console.log(`Page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await pool.end();
  await server.close();
  await database.drop();
}
