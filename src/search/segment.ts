const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Terms a text is indexed and searched by. Chinese has no spaces, so each run of CJK characters
 * gives its characters and their bigrams; other scripts give lowercase words. The same function
 * feeds the keyword index, the local embedder and the local reranker, so all three agree.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  const normal = text.normalize("NFKC").toLowerCase();
  for (const match of normal.matchAll(WORD)) {
    const token = match[0];
    let run = "";
    let latin = "";
    const flushRun = () => {
      for (let i = 0; i < run.length; i++) {
        out.push(run[i] as string);
        if (i + 1 < run.length) out.push(run.slice(i, i + 2));
      }
      run = "";
    };
    const flushLatin = () => {
      if (latin) out.push(latin);
      latin = "";
    };
    for (const char of token) {
      if (CJK.test(char)) {
        flushLatin();
        run += char;
      } else {
        flushRun();
        latin += char;
      }
    }
    flushRun();
    flushLatin();
  }
  return out;
}
