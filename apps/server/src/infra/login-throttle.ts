import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '@tz/core';

/** Password checks allowed in one window, per counter (`LOGIN_*` settings, README "Configuration"). */
export interface LoginLimits {
  /** Per client address and email: one address guessing at one account. */
  perAddressEmail: number;
  /** Per email, from every address together: guessing spread over many addresses. */
  perEmail: number;
  /** Per client address, over every email: a ceiling against spraying many accounts from one address. */
  perAddress: number;
  windowSeconds: number;
}

/**
 * The defaults. Most mobile internet here reaches us through carrier-grade NAT,
 * so one address may carry thousands of owners: the address's own ceiling is
 * high, and the hard limits are per account, so a stranger's mistakes behind
 * the same address never lock another owner out.
 */
export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  perAddressEmail: 10,
  perEmail: 20,
  perAddress: 200,
  windowSeconds: 15 * 60,
};

/** The three counters a login is charged to, in the order they are charged. */
export interface LoginCounters {
  perAddress: RateLimiterAbstract;
  perAddressEmail: RateLimiterAbstract;
  perEmail: RateLimiterAbstract;
}

/**
 * Counts login attempts before their password is checked, in one atomic step
 * per counter, so however many arrive at once, no more checks run than the
 * counters allow. A right password gives its points back (it was no guess); a
 * wrong one keeps them. The address's ceiling is charged first, then the
 * address and email together, then the email: a request refused by a later
 * counter still costs the earlier ones, so one address hammering one account
 * stops at its own pair's limit without spending more of the account's, and
 * locking an owner out from elsewhere takes guesses from several addresses.
 */
export class LoginThrottle {
  constructor(private readonly counters: LoginCounters) {}

  async attempt<T>(email: string, address: string, check: () => Promise<T>): Promise<T> {
    const keys = {
      perAddress: address,
      perAddressEmail: `${address} ${email.toLowerCase()}`,
      perEmail: email.toLowerCase(),
    };
    await take(
      this.counters.perAddress,
      keys.perAddress,
      'Too many failed logins from this address; try again later',
    );
    await take(
      this.counters.perAddressEmail,
      keys.perAddressEmail,
      'Too many failed logins for this account from this address; try again later',
    );
    await take(
      this.counters.perEmail,
      keys.perEmail,
      'Too many failed logins for this account; try again later',
    );
    try {
      const result = await check();
      await this.giveBack(keys);
      return result;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'credentials_invalid')) await this.giveBack(keys);
      throw error;
    }
  }

  private async giveBack(keys: Record<keyof LoginCounters, string>): Promise<void> {
    // A lost refund only makes the limit stricter for the rest of the window.
    await Promise.all(
      (Object.keys(keys) as Array<keyof LoginCounters>).map((name) =>
        this.counters[name].reward(keys[name], 1),
      ),
    ).catch(() => undefined);
  }
}

async function take(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw new AppError('rate_limited', message, {
      retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
    });
  }
}
