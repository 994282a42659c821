// A form for an external tool's arguments the model could not fill (a `data-tool-form` part), built
// from the tool's JSON Schema. Submitting it sends the call as the person's next message, so it
// runs as any call does, a write behind its confirm card. A chunk of its own, fetched when one shows.
import { type FormEvent, useMemo, useState } from "react";
import type { ToolFormData } from "../shapes.ts";
import { type FieldProblem, type FormField, formArguments, formFields, formSubmissionText } from "./form-fields.ts";
import type { Lang } from "./i18n.ts";
import { useI18n } from "./i18n.ts";
import "./tool-form.css";

const WORDS: Record<
  Lang,
  { title: (tool: string) => string; call: string; required: string; json: string; problems: Record<FieldProblem, string> }
> = {
  zh: {
    title: (tool) => `填写“${tool}”的参数`,
    call: "调用",
    required: "（必填）",
    json: "JSON 格式",
    problems: { required: "请填写这一项。", number: "请填一个数字。", integer: "请填一个整数。", json: "JSON 格式不对。" },
  },
  en: {
    title: (tool) => `Arguments for ${tool}`,
    call: "Call",
    required: " (required)",
    json: "as JSON",
    problems: {
      required: "Fill this in.",
      number: "Enter a number.",
      integer: "Enter a whole number.",
      json: "This is not valid JSON.",
    },
  },
};

interface Props {
  data: ToolFormData;
  /** Only the last message's form, with nothing streaming, can be submitted. */
  enabled: boolean;
  onSubmit: (text: string) => void;
}

function Input({
  field,
  id,
  value,
  onChange,
}: {
  field: FormField;
  id: string;
  value: string | boolean;
  onChange: (v: string | boolean) => void;
}) {
  const common = { id, name: field.name, "aria-describedby": `${id}-hint` };
  if (field.kind === "boolean") {
    return <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
  }
  if (field.kind === "choice") {
    return (
      <select {...common} value={String(value)} required={field.required} onChange={(e) => onChange(e.target.value)}>
        <option value="">—</option>
        {field.choices.map((choice, i) => (
          <option key={JSON.stringify(choice)} value={String(i)}>
            {typeof choice === "string" ? choice : JSON.stringify(choice)}
          </option>
        ))}
      </select>
    );
  }
  if (field.kind === "json") {
    return <textarea {...common} rows={3} spellCheck={false} value={String(value)} onChange={(e) => onChange(e.target.value)} />;
  }
  const numeric = field.kind === "number" || field.kind === "integer";
  return (
    <input
      {...common}
      type="text"
      inputMode={numeric ? "decimal" : undefined}
      value={String(value)}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** The form: one labelled input a field, what is wrong under the field, and the call button. */
export default function ToolForm({ data, enabled, onSubmit }: Props) {
  const { lang } = useI18n();
  const words = WORDS[lang];
  const fields = useMemo(() => formFields(data.schema, data.values), [data.schema, data.values]);
  const [inputs, setInputs] = useState(() => new Map(fields.map((f) => [f.name, f.initial] as const)));
  const [problems, setProblems] = useState(new Map<string, FieldProblem>());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = formArguments(fields, inputs);
    if (!result.ok) return setProblems(result.problems);
    setProblems(new Map());
    onSubmit(formSubmissionText(data.toolName, result.args));
  };
  const idOf = (name: string) => `form-${data.toolName}-${name}`.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <form className="tool-form" onSubmit={submit} noValidate>
      <fieldset disabled={!enabled}>
        <legend>{words.title(data.title)}</legend>
        {data.description && <p className="muted">{data.description}</p>}
        {fields.map((field) => {
          const id = idOf(field.name);
          const problem = problems.get(field.name);
          return (
            <div key={field.name} className={`field field-${field.kind}`}>
              <label htmlFor={id}>
                {field.label}
                {field.required && <span className="muted">{words.required}</span>}
              </label>
              <Input
                field={field}
                id={id}
                value={inputs.get(field.name) ?? field.initial}
                onChange={(value) => setInputs((current) => new Map(current).set(field.name, value))}
              />
              <small id={`${id}-hint`} className="muted">
                {[field.hint, field.kind === "json" ? words.json : ""].filter(Boolean).join(" · ")}
              </small>
              {problem && (
                <small className="error-text" role="alert">
                  {words.problems[problem]}
                </small>
              )}
            </div>
          );
        })}
        <button type="submit" className="primary">
          {words.call}
        </button>
      </fieldset>
    </form>
  );
}
