import { z } from 'zod';
import { defineRoute } from '../../http/route.ts';
import { livemode, unix } from './schemas.ts';

const money = z.array(z.object({ amount: z.number().int(), currency: z.string() }));

export const referralRoutes = [
  defineRoute({
    method: 'GET',
    path: '/referrals',
    tag: 'Referrals',
    summary: 'Referrals',
    description:
      'The merchant’s referral code, the merchants who signed up with it (`referral_code` at sign-up) and the earnings in this mode: 10 % of the platform fee on each paid payment of a referred merchant for 12 months after its sign-up, rounded half up in the minor unit. Earnings are credited to the `referral` balance of GET /v1/balance within seconds of the payment.',
    auth: 'secret',
    response: z.object({
      object: z.literal('referrals'),
      code: z.string(),
      rule: z.object({ fee_share_basis_points: z.number().int(), months: z.number().int() }),
      referred: z.array(
        z.object({
          merchant: z.string(),
          business_name: z.string(),
          joined: unix,
          earning_until: unix.describe('Payments paid before this earn the referrer a share'),
          payments: z.number().int().describe('Payments that earned a share so far'),
          earnings: money,
        }),
      ),
      earnings: money.describe('Total per currency'),
      livemode,
    }),
    handler: ({ auth, db, services }) => services.referrals.list(db, auth),
  }),
];
