/**
 * Coalesces calls into one `run()` per animation frame: a reply streaming hundreds of chunks a second is
 * rendered (and its Markdown parsed) at most once per frame. `flush()` runs a pending call now.
 */
export function createFrameScheduler(run: () => void): { schedule(): void; flush(): void } {
  let frame: number | null = null;
  const flush = (): void => {
    if (frame !== null) cancelAnimationFrame(frame);
    frame = null;
    run();
  };
  return {
    schedule() {
      frame ??= requestAnimationFrame(() => {
        frame = null;
        run();
      });
    },
    flush,
  };
}
