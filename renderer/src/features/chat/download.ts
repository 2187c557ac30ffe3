/**
 * Offers text as a file download (a Blob behind a temporary object URL and an <a download>): the
 * browser or Electron asks where to save it. Nothing is written by the renderer itself.
 */
export function offerDownload(filename: string, mimeType: string, content: string, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = doc.createElement('a');
  link.href = url;
  // The Host names the file; keep it a plain name whatever arrived.
  link.download = [...filename].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '-' : c)).join('') || 'conversation.txt';
  link.rel = 'noopener';
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click had its turn to start the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
