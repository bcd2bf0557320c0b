// The part of a `ws` WebSocket the server's sockets use. Typed here because the project does not
// carry @types/ws; it also lets the limits be unit-tested with a fake socket.
export interface SocketLike {
  /** Bytes queued for sending and not yet handed to the operating system. */
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  /** Destroys the connection at once, without a closing handshake. */
  terminate(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The query string of a socket upgrade: the session token and the language, both optional. */
export interface SocketQuery {
  token?: string;
  lang?: string;
}

export const socketOpen = 1;

export const closeCodes = {
  normal: 1000,
  policyViolation: 1008,
  messageTooBig: 1009,
  tryAgainLater: 1013,
} as const;

/** The byte length of an inbound message, whatever form `ws` delivered it in. */
export function byteLengthOf(data: Buffer | ArrayBuffer | Buffer[]): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

export function textOf(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}
