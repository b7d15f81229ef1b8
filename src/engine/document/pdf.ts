/**
 * The PDF download of a document screen: the paper element drawn to a canvas (html2canvas-pro) and
 * placed on one A4 page (jsPDF), in the browser — its fonts render the text, so the PDF is the page
 * on screen and in print. Loaded on first use (both libraries are large).
 */
const A4 = { width: 210, height: 297 } as const;

export async function downloadPdf(paper: HTMLElement, fileName: string): Promise<void> {
  const [{ default: html2canvas }, { jsPDF }] = await Promise.all([import('html2canvas-pro'), import('jspdf')]);
  const canvas = await html2canvas(paper, { scale: 2, backgroundColor: '#ffffff', useCORS: true, logging: false });
  const pdf = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4', compress: true });
  pdf.addImage(canvas.toDataURL('image/jpeg', 0.92), 'JPEG', 0, 0, A4.width, A4.height);
  pdf.setProperties({ title: fileName.replace(/\.pdf$/, '') });
  pdf.save(fileName);
}
