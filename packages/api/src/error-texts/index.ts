// The one error catalogue: each reason's text in each language, written once (one file a language).
// The server's envelope `msg` reads it through this map (apps/server/src/i18n/messages.ts); the
// web loads one language at a time as its `errors` namespace (apps/web/src/lib/i18n.ts), so it
// imports the language files, never this map of all ten.
import type { Lang } from '../http.ts';
import CN from './CN.ts';
import EN from './EN.ts';
import ID from './ID.ts';
import JP from './JP.ts';
import KO from './KO.ts';
import MS from './MS.ts';
import PT from './PT.ts';
import TH from './TH.ts';
import TW from './TW.ts';
import VN from './VN.ts';
import type { ErrorTexts } from './types.ts';

export { fillErrorText, type ErrorTexts } from './types.ts';

export const errorTexts: Readonly<Record<Lang, ErrorTexts>> = { TW, EN, JP, CN, KO, TH, PT, MS, ID, VN };
