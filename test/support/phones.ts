/**
 * Real-format numbers of the newer and formerly refused mobile ranges, as a payer types them, with the
 * stored form and the network hint the API gives them.
 */
export const NUMBERS_OF_EVERY_RANGE: ReadonlyArray<
  readonly [typed: string, stored: string, network: string | null]
> = [
  ['0601 234 567', '255601234567', null],
  ['0632 345 678', '255632345678', 'halotel'],
  ['0662 345 678', '255662345678', 'airtel'],
  ['0701 234 567', '255701234567', 'mixx'],
  ['0722 345 678', '255722345678', 'mpesa'],
  ['0792 345 678', '255792345678', 'mpesa'],
];
