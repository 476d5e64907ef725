/** Unix seconds, as every `created` field is. */
export const unixSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
export const unixOrNull = (date: Date | null): number | null => (date ? unixSeconds(date) : null);
