import { describe, expect, it } from 'vitest';
import { normaliseServer, parsePairingInput } from './server-address.ts';

describe('the pairing code field', () => {
  it('splits a pasted pairing URL into the server and the code', () => {
    expect(parsePairingInput('http://192.168.1.10:4000/till/?pair=k7m2qx')).toEqual({
      server: 'http://192.168.1.10:4000',
      code: 'K7M2QX',
    });
  });

  it('keeps the path prefix a server is published under and ignores spaces around the link', () => {
    expect(parsePairingInput('  https://pos.example.tz/duka/till/?pair=ABCD1234 ')).toEqual({
      server: 'https://pos.example.tz/duka',
      code: 'ABCD1234',
    });
  });

  it('reads a link pasted without its scheme', () => {
    expect(parsePairingInput('10.0.0.5:4000/till/?pair=XY12')).toEqual({
      server: 'http://10.0.0.5:4000',
      code: 'XY12',
    });
  });

  it('takes a typed code as the code, in capitals, with no server', () => {
    expect(parsePairingInput(' k7m2qx ')).toEqual({ server: null, code: 'K7M2QX' });
  });

  it('gives no code for a server address without one', () => {
    expect(parsePairingInput('http://192.168.1.10:4000/')).toEqual({
      server: 'http://192.168.1.10:4000',
      code: '',
    });
  });
});

describe('a typed server address', () => {
  it('gets http:// when the scheme is left out and loses its trailing slash', () => {
    expect(normaliseServer('192.168.1.10:4000/')).toBe('http://192.168.1.10:4000');
    expect(normaliseServer('https://pos.example.tz')).toBe('https://pos.example.tz');
  });

  it('refuses what is not an http(s) address', () => {
    expect(normaliseServer('')).toBeNull();
    expect(normaliseServer('ftp://pos.example.tz')).toBeNull();
    expect(normaliseServer('http://')).toBeNull();
    expect(normaliseServer('not a server')).toBeNull();
  });
});
