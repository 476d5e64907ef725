import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('settings', () => {
  it('retries a failed subscription charge 1, 3 and 5 days on, unless told otherwise', () => {
    expect(loadConfig({}).SUBSCRIPTION_RETRY_DAYS).toEqual([1, 3, 5]);
    expect(loadConfig({ SUBSCRIPTION_RETRY_DAYS: '2,7' }).SUBSCRIPTION_RETRY_DAYS).toEqual([2, 7]);
  });

  it('takes SUBSCRIPTION_RETRY_DAYS= (empty) as no retries: the first failure is the last', () => {
    expect(loadConfig({ SUBSCRIPTION_RETRY_DAYS: '' }).SUBSCRIPTION_RETRY_DAYS).toEqual([]);
  });

  it('still takes any other empty setting as unset', () => {
    const config = loadConfig({ PORT: '', WEBHOOK_RETRY_DELAYS_MS: '', SUBSCRIPTION_RETRY_DAYS: '' });
    expect([config.PORT, config.WEBHOOK_RETRY_DELAYS_MS]).toEqual([4000, [0, 60_000, 300_000]]);
    expect(() => loadConfig({ SUBSCRIPTION_RETRY_DAYS: '3,1' })).toThrow(/SUBSCRIPTION_RETRY_DAYS/);
  });
});
