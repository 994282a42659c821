// The Markdown renderer, in a chunk of its own (lazy-markdown.tsx loads it): the largest part of
// the UI, and only an answer needs it.
import { type ComponentProps, useEffect, useMemo, useRef } from "react";
import { defaultComponents, type ExtraProps, Streamdown } from "streamdown";
import "streamdown/styles.css";
import type { CitedSource } from "../shapes.ts";
import { CITE_PREFIX, citedSources, linkCitations, quotedFrom } from "./citations.ts";
import { labelTableCells } from "./table-labels.ts";

export interface MarkdownProps {
  text: string;
  /** True while the message is being streamed: Streamdown then completes unfinished syntax as it goes. */
  streaming: boolean;
  /** True while this part is still receiving text. */
  animating: boolean;
  /** The passages the answer may cite: its `[n]` citations of them become links. */
  sources?: CitedSource[];
  /** Opens a cited passage, with the sentences the answer quotes from it. */
  onCite?: (source: CitedSource, quotes: string[]) => void;
}

/** An answer's text as Markdown, parsed incrementally while it streams; citations of known passages as links. */
export default function Markdown({ text, streaming, animating, sources = [], onCite }: MarkdownProps) {
  const cited = useMemo(() => citedSources(text, sources), [text, sources]);
  const linked = useMemo(() => linkCitations(text, cited), [text, cited]);
  // Streamdown keeps blocks whose text has not changed, with the link component they were drawn
  // with: one component for the life of the answer, reading the latest sources when clicked.
  const latest = useRef({ cited, text, onCite });
  latest.current = { cited, text, onCite };
  const components = useMemo(
    () => ({
      a: (props: ComponentProps<"a"> & ExtraProps) => {
        const n = props.href?.startsWith(CITE_PREFIX) ? Number(props.href.slice(CITE_PREFIX.length)) : Number.NaN;
        // Any other link is Streamdown's own.
        if (Number.isNaN(n)) return <defaultComponents.a {...props} />;
        return (
          <a
            href={props.href}
            className="citation-link"
            onClick={(event) => {
              event.preventDefault();
              const now = latest.current;
              const source = now.cited.get(n);
              if (source) now.onCite?.(source, quotedFrom(now.text, n));
            }}
          >
            {props.children}
          </a>
        );
      },
    }),
    [],
  );
  // Every render may add rows while the answer streams: their cells get their columns' titles.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current) labelTableCells(box.current);
  });
  return (
    <div ref={box} className="markdown-box">
      <Streamdown
        className="markdown"
        mode={streaming ? "streaming" : "static"}
        isAnimating={animating}
        controls={false}
        // Streamdown caps a table at 300 px with a scroll box drawn by Tailwind classes Weft has no
        // stylesheet for: a longer table spilled over what follows it. The conversation scrolls instead.
        tableMaxHeight={0}
        components={components}
      >
        {linked}
      </Streamdown>
    </div>
  );
}
