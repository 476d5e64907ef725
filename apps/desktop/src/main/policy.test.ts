import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, desktopConfig, isTrustedUrl, rendererFilePath } from './policy.ts';
import { guardContents, tillWindowOptions } from './window.ts';

describe('where the desktop window may go', () => {
  it('loads the built renderer from app://till when no server is given', () => {
    expect(desktopConfig({}, [])).toEqual({
      serverUrl: undefined,
      startUrl: 'app://till/index.html',
      trustedOrigins: [APP_ORIGIN],
    });
  });

  it("loads the server's /till/ from TILL_SERVER_URL or --server-url, the flag first", () => {
    expect(desktopConfig({ TILL_SERVER_URL: 'http://192.168.1.10:4000/' }, [])).toEqual({
      serverUrl: 'http://192.168.1.10:4000',
      startUrl: 'http://192.168.1.10:4000/till/',
      trustedOrigins: [APP_ORIGIN, 'http://192.168.1.10:4000'],
    });
    expect(
      desktopConfig({ TILL_SERVER_URL: 'http://a:4000' }, ['--server-url=https://pos.example.tz']).startUrl,
    ).toBe('https://pos.example.tz/till/');
  });

  it('refuses a server address that is not http(s)', () => {
    expect(() => desktopConfig({ TILL_SERVER_URL: 'file:///etc' }, [])).toThrow(/http or https/);
    expect(() => desktopConfig({ TILL_SERVER_URL: 'pos.local' }, [])).toThrow(/not a URL/);
  });

  it('trusts only the listed origins, port included', () => {
    const trusted = [APP_ORIGIN, 'http://192.168.1.10:4000'];
    expect(isTrustedUrl('app://till/index.html#/sale', trusted)).toBe(true);
    expect(isTrustedUrl('http://192.168.1.10:4000/till/?pair=ABCD', trusted)).toBe(true);
    expect(isTrustedUrl('http://192.168.1.10:4001/till/', trusted)).toBe(false);
    expect(isTrustedUrl('app://other/index.html', trusted)).toBe(false);
    expect(isTrustedUrl('https://evil.example/', trusted)).toBe(false);
    expect(isTrustedUrl('not a url', trusted)).toBe(false);
  });

  it('serves renderer files under the root only, and index.html for routes', () => {
    const root = '/opt/till/out/renderer';
    expect(rendererFilePath(root, 'app://till/assets/index-abc.js')).toBe(join(root, 'assets/index-abc.js'));
    expect(rendererFilePath(root, 'app://till/')).toBe(join(root, 'index.html'));
    expect(rendererFilePath(root, 'app://till/sale/checkout')).toBe(join(root, 'index.html'));
    // Dot segments, encoded or not, stop at the root.
    expect(rendererFilePath(root, 'app://till/%2e%2e/%2e%2e/main/index.js')).toBe(
      join(root, 'main/index.js'),
    );
    expect(rendererFilePath(root, 'app://till/..%2f..%2fetc/passwd')).toBeUndefined();
    expect(rendererFilePath(root, 'app://elsewhere/index.html')).toBeUndefined();
    expect(rendererFilePath(root, 'app://till/%E0%A4%A')).toBeUndefined();
  });
});

describe('the till window', () => {
  it('isolates the page: context isolation, sandboxed preload, no Node, no webview', () => {
    const prefs = tillWindowOptions('/app/out/preload/index.cjs').webPreferences;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('stops navigation away from trusted origins and opens outside links in the browser instead of a window', () => {
    const listeners = new Map<string, (event: { preventDefault(): void }, url?: string) => void>();
    let openHandler: (details: { url: string }) => { action: string } = () => ({ action: 'allow' });
    const contents = {
      on(name: string, listener: (event: { preventDefault(): void }, url?: string) => void) {
        listeners.set(name, listener);
        return contents;
      },
      setWindowOpenHandler(handler: typeof openHandler) {
        openHandler = handler;
      },
    };
    const opened: string[] = [];
    guardContents(contents as never, [APP_ORIGIN], (url) => opened.push(url));

    const navigate = (event: string, url: string): boolean => {
      let prevented = false;
      listeners.get(event)!({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('will-navigate', 'app://till/index.html?pair=XYZ')).toBe(false);
    expect(navigate('will-navigate', 'https://evil.example/')).toBe(true);
    expect(navigate('will-redirect', 'http://127.0.0.1:9101/')).toBe(true);
    expect(navigate('will-attach-webview', 'app://till/')).toBe(true);
    expect(openHandler({ url: 'https://pos.example.tz/receipts/R-1' })).toEqual({ action: 'deny' });
    expect(openHandler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://pos.example.tz/receipts/R-1']);
  });
});
