import { publicKeySchema, serialSchema } from '@nadi/api/mining';
import type { RuleObject } from 'antd/es/form';

/** An antd form rule that holds a field to its zod schema from the contract (the server's limits). */
export function zodRule(schema: { safeParse: (value: unknown) => { success: boolean } }, message: string): RuleObject {
  return {
    validator: async (_, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      if (!schema.safeParse(value).success) throw new Error(message);
    },
  };
}

/** The most devices (and serials) one request carries: the contract's `.max(1000)` of registerDevicesBody and codeBatchBody. */
export const devicesPerRequestMax = 1000;
export const serialsPerBatchMax = 1000;

export interface ParsedLines<T> {
  items: T[];
  /** One message per refused line, with its line number. */
  errors: string[];
}

const lineOf = (n: number) => `line ${n}`;

/**
 * Pasted "serial,public_key" lines (commas, semicolons, tabs or spaces between; blank lines and a
 * "serial,public_key" header skipped), each held to the contract's serial and Ed25519 key schemas,
 * repeats refused like the server does.
 */
export function parseDeviceLines(text: string): ParsedLines<{ serial: string; public_key: string }> {
  const items: { serial: string; public_key: string }[] = [];
  const errors: string[] = [];
  const serials = new Set<string>();
  const keys = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || /^serial[,;\t ]+public_key$/i.test(line)) return;
    const parts = line.split(/[,;\t ]+/);
    const [serial = '', publicKey = ''] = parts;
    if (parts.length !== 2) errors.push(`${lineOf(index + 1)}: expected "serial,public_key"`);
    else if (!serialSchema.safeParse(serial).success) errors.push(`${lineOf(index + 1)}: serial "${serial}" is not 4–64 letters, digits or dashes`);
    else if (!publicKeySchema.safeParse(publicKey).success) errors.push(`${lineOf(index + 1)}: the public key is not 64 hex digits`);
    else if (serials.has(serial.toUpperCase())) errors.push(`${lineOf(index + 1)}: serial ${serial} is repeated`);
    else if (keys.has(publicKey.toLowerCase())) errors.push(`${lineOf(index + 1)}: the public key is repeated`);
    else {
      serials.add(serial.toUpperCase());
      keys.add(publicKey.toLowerCase());
      items.push({ serial, public_key: publicKey });
    }
  });
  if (items.length > devicesPerRequestMax) errors.push(`at most ${devicesPerRequestMax} devices at once (${items.length} given)`);
  return { items, errors };
}

/** Pasted serials, separated by line breaks, commas or spaces, each held to the contract's schema, repeats refused. */
export function parseSerials(text: string): ParsedLines<string> {
  const items: string[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const serial of text.split(/[\s,;]+/).filter(Boolean)) {
    if (!serialSchema.safeParse(serial).success) errors.push(`"${serial}" is not a serial (4–64 letters, digits or dashes)`);
    else if (seen.has(serial.toUpperCase())) errors.push(`${serial} is repeated`);
    else {
      seen.add(serial.toUpperCase());
      items.push(serial);
    }
  }
  if (items.length > serialsPerBatchMax) errors.push(`at most ${serialsPerBatchMax} serials in one batch (${items.length} given)`);
  return { items, errors };
}

/** Uptime in basis points as a percentage with two decimals (10000 bps = 100.00 %). */
export function bpsPercent(bps: number): string {
  return `${(bps / 100).toFixed(2)} %`;
}

/** Offers a text as a file download once (nothing is kept: the object URL is released at once). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  URL.revokeObjectURL(url);
}
