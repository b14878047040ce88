import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

// Longest line read as one message; a longer one is answered as an error and dropped.
const MAX_LINE = 16 * 1024 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

// MCP over stdin/stdout, one JSON-RPC message per line, as the SDK's stdio transport, with two
// differences: a line that is not JSON gets the error JSON-RPC requires (-32700), and one that is JSON
// but not a JSON-RPC message gets -32600 (the SDK's transport dropped both without an answer); and the
// client is gone when stdin ends or stdout cannot be written (EPIPE): then onclose fires once, and the
// server stops every call (mcp-command.ts).
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer: Buffer = Buffer.alloc(0);
  private closed = false;
  private outputGone = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onGone);
    this.input.on('close', this.onGone);
    this.input.on('error', this.onGone);
    this.output.on('error', () => {
      this.outputGone = true;
      this.onGone();
    });
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (let end = this.buffer.indexOf(0x0a); end !== -1; end = this.buffer.indexOf(0x0a)) {
      const line = this.buffer.subarray(0, end).toString('utf8').replace(/\r$/, '');
      this.buffer = this.buffer.subarray(end + 1);
      this.receive(line);
    }
    if (this.buffer.length > MAX_LINE) {
      this.buffer = Buffer.alloc(0);
      this.reply(null, INVALID_REQUEST, `a message longer than ${MAX_LINE} bytes was dropped`);
    }
  };

  private readonly onGone = () => {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  };

  private receive(line: string): void {
    if (line.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.reply(null, PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      const known = typeof id === 'string' || typeof id === 'number' ? id : null;
      this.reply(
        known,
        INVALID_REQUEST,
        'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reply(id: string | number | null, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    // After stdin ended the answers of the calls it stopped still go out, while stdout is read.
    if (this.outputGone) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    (this.input as NodeJS.ReadStream).pause?.();
    this.onGone();
  }
}
