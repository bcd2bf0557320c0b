/** 0x1234…abcd: enough to recognise an address without filling a phone's width. */
export function shortAddress(address: string, head = 6, tail = 4): string {
  if (address.length <= head + tail + 1) return address;
  return `${address.slice(0, head)}…${address.slice(-tail)}`;
}

/** The browser's date formatters, made once per language and style (building one is costly; a list formats every row). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(tag: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${tag} ${withTime ? 'time' : 'date'}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(tag, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
    dateFormats.set(key, format);
  }
  return format;
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
