/**
 * Time allowed to PRODUCE one output (a screenshot, the PDF, the HTML) once waiting is over. It is
 * separate from the job's deadline on purpose: when max_wait passes the capture still has to take
 * its pictures. A full-page PNG of a very long page takes a few seconds on two cores; after 30 s the
 * browser is hung, and the error lets the pool replace it.
 */
export const OUTPUT_TIMEOUT_MS = 30_000;
