// The words of the tools the signed-in person may use (`GET /api/chat/tools`): written on each
// tool's definition on the server, read here once a page load, so the browser keeps no list of
// tool titles or field words of its own.
import { useEffect, useState } from "react";
import { api } from "./api.ts";
import type { ToolWords } from "./result-labels.ts";

let loaded: Promise<ToolWords> | null = null;

function load(): Promise<ToolWords> {
  loaded ??= api.toolWords().then(
    ({ tools }) => new Map(tools.map((tool) => [tool.name, tool])),
    (error: unknown) => {
      // A failed load is tried again by the next card that asks; meanwhile cards show the tools' names.
      loaded = null;
      throw error;
    },
  );
  return loaded;
}

/** The tools' words, once loaded (`null` until then, or when they could not be). */
export function useToolWords(): ToolWords | null {
  const [words, setWords] = useState<ToolWords | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (loadedWords) => live && setWords(loadedWords),
      // Cards keep the tools' names until a later card loads the words.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return words;
}
