/**
 * Layout shifts as CLS counts them, of what is inside the page's `.shift-fixture`: the page's `layout-shift` entries
 * since watching began, less those right after input.
 */
interface Shift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/** Two animation frames: the step before has been painted, so a move after it counts as a shift. */
export const painted = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

/** Whether `node` is `root` or inside it, through shadow roots. */
function inside(root: Node, node: Node | null): boolean {
  for (let n = node; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null) if (n === root) return true;
  return false;
}

interface Attributed extends Shift {
  sources: ReadonlyArray<{ node: Node | null }>;
}

/** Collects layout shifts from now on of what is inside the fixture (not late ones of an earlier test's page). */
export function watchShifts() {
  const since = performance.now();
  const entries: Shift[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...(list.getEntries() as Shift[])));
  observer.observe({ type: 'layout-shift', buffered: true });
  return {
    async total(): Promise<number> {
      await painted();
      await painted();
      entries.push(...(observer.takeRecords() as Shift[]));
      observer.disconnect();
      const root = document.querySelector('.shift-fixture')!;
      return entries.filter((e) => e.startTime >= since && !e.hadRecentInput
        && (e as Attributed).sources.some((s) => inside(root, s.node))).reduce((sum, e) => sum + e.value, 0);
    },
  };
}
