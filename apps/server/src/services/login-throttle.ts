import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '@tz/core';

/** Password checks allowed per email, and per client address, in one window. */
export const LOGIN_ATTEMPTS_PER_EMAIL = 10;
export const LOGIN_ATTEMPTS_PER_ADDRESS = 20;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * Counts login attempts before their password is checked, in one atomic step
 * per counter, so however many arrive at once, no more checks run than the
 * counters allow. A right password gives its points back (it was no guess); a
 * wrong one keeps them. The address pays first: a stranger's ten guesses at one
 * merchant spend half their address's attempts for the window, and a request
 * the email's lock refuses still costs the address its point.
 */
export class LoginThrottle {
  constructor(
    private readonly perEmail: RateLimiterAbstract,
    private readonly perAddress: RateLimiterAbstract,
  ) {}

  async attempt<T>(email: string, address: string, check: () => Promise<T>): Promise<T> {
    const emailKey = email.toLowerCase();
    await take(this.perAddress, address, 'Too many failed logins from this address; try again later');
    await take(this.perEmail, emailKey, 'Too many failed logins for this account; try again later');
    try {
      const result = await check();
      await this.giveBack(emailKey, address);
      return result;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'credentials_invalid'))
        await this.giveBack(emailKey, address);
      throw error;
    }
  }

  private async giveBack(email: string, address: string): Promise<void> {
    // A lost refund only makes the limit stricter for the rest of the window.
    await Promise.all([this.perEmail.reward(email, 1), this.perAddress.reward(address, 1)]).catch(
      () => undefined,
    );
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
