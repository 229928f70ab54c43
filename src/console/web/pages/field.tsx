/** A labelled text input with an optional hint, as every form of the console uses it. */
export function Field(props: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  type?: string;
  hint?: string;
  list?: string;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        list={props.list}
        aria-describedby={props.hint !== undefined ? `${props.id}-hint` : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.hint !== undefined && (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}
