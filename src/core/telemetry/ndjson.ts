import type { TelemetrySink, ZarisEvent } from './events';

/** One event as one JSON Lines record (the export format and the CLI's --events output). */
export function toNdjsonLine(e: ZarisEvent): string {
  return JSON.stringify(e);
}

/**
 * Buffers NDJSON lines and hands them to `write` in chunks (a file stream in
 * the CLI, a Blob builder in the browser).
 */
export class NdjsonSink implements TelemetrySink {
  private buffer: string[] = [];
  private size = 0;
  lines = 0;

  constructor(
    private readonly write: (chunk: string) => void,
    /** flush after this many characters */
    private readonly chunkChars = 1 << 16,
  ) {}

  emit(e: ZarisEvent): void {
    const line = toNdjsonLine(e);
    this.buffer.push(line);
    this.size += line.length + 1;
    this.lines++;
    if (this.size >= this.chunkChars) this.flush();
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    this.write(this.buffer.join('\n') + '\n');
    this.buffer = [];
    this.size = 0;
  }
}
