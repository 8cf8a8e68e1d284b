/** Collects `Server-Timing` entries for a response (durations in ms, names only, no data). */
export class ServerTiming {
  private readonly entries: string[] = [];
  private readonly start = Date.now();

  async measure<T>(name: string, work: () => Promise<T>): Promise<T> {
    const began = Date.now();
    try {
      return await work();
    } finally {
      this.entries.push(`${name};dur=${Date.now() - began}`);
    }
  }

  note(name: string, description: string): void {
    this.entries.push(`${name};desc="${description.replace(/["\\]/g, '')}"`);
  }

  header(): string {
    return [...this.entries, `total;dur=${Date.now() - this.start}`].join(', ');
  }
}
