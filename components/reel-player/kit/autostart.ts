/** Autostart `viewable`: the player starts muted once half its video is in view, once per media. */
import type { KitContext } from './host.ts';

export class Autostart {
  private viewable: IntersectionObserver | null = null;
  private autostarted = false;

  constructor(private readonly kit: KitContext) {}

  /** A new media may autostart again. */
  reset(): void {
    this.autostarted = false;
  }

  watch(video: HTMLVideoElement): void {
    const wanted = this.kit.host.options.autostart === 'viewable' && !this.autostarted;
    if (!wanted) {
      this.viewable?.disconnect();
      return;
    }
    this.viewable ??= new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || this.autostarted) return;
      this.autostarted = true;
      this.viewable!.disconnect();
      const target = entries[0]!.target as HTMLVideoElement;
      target.muted = true;
      void target.play().catch(() => {});
    }, { threshold: 0.5 });
    this.viewable.disconnect();
    this.viewable.observe(video);
  }

  disconnect(): void {
    this.viewable?.disconnect();
  }
}
