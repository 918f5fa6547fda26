/** `[#######-------------]  35 %  35,000 / 100,000 events  4,100/s  ETA 16 s` */
export function progressLine(done: number, total: number, elapsedMs: number): string {
  const width = 20;
  const filled = Math.round((done / total) * width);
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const eta = rate > 0 ? Math.ceil((total - done) / rate) : 0;
  const percent = String(Math.floor((done / total) * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent} %  ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} events  ${Math.round(rate).toLocaleString('en-US')}/s  ETA ${eta} s `;
}
