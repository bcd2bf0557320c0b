/** 0x1234…abcd: enough to recognise an address without filling a phone's width. */
export function shortAddress(address: string, head = 6, tail = 4): string {
  if (address.length <= head + tail + 1) return address;
  return `${address.slice(0, head)}…${address.slice(-tail)}`;
}

/**
 * The browser's formatter for `key` (its language and options), made once: building an Intl
 * formatter is costly, and a list formats every row, a countdown card every second.
 */
const intlFormats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
export function intlFormat<F extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => F): F {
  let format = intlFormats.get(key) as F | undefined;
  if (!format) {
    format = make();
    intlFormats.set(key, format);
  }
  return format;
}

function dateFormat(tag: string, withTime: boolean): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' };
  return intlFormat(`date ${tag} ${withTime ? 'time' : 'day'}`, () => new Intl.DateTimeFormat(tag, options));
}

export function formatDateTime(iso: string, tag: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateFormat(tag, true).format(date);
}

export function formatDate(iso: string, tag: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return dateFormat(tag, false).format(date);
}
