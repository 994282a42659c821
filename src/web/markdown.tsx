// The Markdown renderer, in a chunk of its own (lazy-markdown.tsx loads it): the largest part of
// the UI, and only an answer needs it.
import { Streamdown } from "streamdown";
import "streamdown/styles.css";

export interface MarkdownProps {
  text: string;
  /** True while the message is being streamed: Streamdown then completes unfinished syntax as it goes. */
  streaming: boolean;
  /** True while this part is still receiving text. */
  animating: boolean;
}

/** An answer's text as Markdown, parsed incrementally while it streams. */
export default function Markdown({ text, streaming, animating }: MarkdownProps) {
  return (
    <Streamdown className="markdown" mode={streaming ? "streaming" : "static"} isAnimating={animating} controls={false}>
      {text}
    </Streamdown>
  );
}
