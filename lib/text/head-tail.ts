/**
 * Collects streamed text but keeps only its first `headChars` and last `tailChars`, so a command
 * that prints megabytes costs bounded memory and the model still sees how the output began and how
 * it ended (where errors and summaries usually are).
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private omitted = 0;

  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  push(chunk: string): void {
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (!chunk) return;
    this.tail += chunk;
    // Trim lazily (at twice the size) so a stream of small chunks does not re-copy the tail each time.
    if (this.tail.length > this.tailChars * 2) this.trimTail();
  }

  /** Everything kept, with a note where the middle was dropped. */
  text(): string {
    this.trimTail();
    if (this.omitted === 0) return this.head + this.tail;
    return `${this.head}\n\n[... ${this.omitted} characters omitted from the middle of the output ...]\n\n${this.tail}`;
  }

  private trimTail(): void {
    const excess = this.tail.length - this.tailChars;
    if (excess <= 0) return;
    this.omitted += excess;
    this.tail = this.tail.slice(excess);
  }
}
