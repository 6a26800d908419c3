import { Form } from "react-router";

/**
 * An on/off setting as a switch: a form whose one button posts the other state, so it works without
 * JavaScript; its accessible name is the setting's label and aria-checked its state.
 */
export function SettingSwitch({
  intent,
  label,
  on,
  hint,
}: {
  intent: string;
  label: string;
  on: boolean;
  hint: string;
}) {
  return (
    <Form method="post" className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="value" value={on ? "off" : "on"} />
      <button
        type="submit"
        name="intent"
        value={intent}
        role="switch"
        aria-checked={on}
        className="inline-flex items-center gap-3 rounded-lg border border-slate-600 px-4 py-2 text-slate-100 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-400"
      >
        <span
          aria-hidden="true"
          className={`inline-block h-5 w-9 rounded-full p-0.5 ${on ? "bg-blue-600" : "bg-slate-600"}`}
        >
          <span className={`block h-4 w-4 rounded-full bg-white ${on ? "translate-x-4" : ""}`} />
        </span>
        {label}
      </button>
      <span className="text-sm text-slate-300">{`${on ? "On" : "Off"}: ${hint}`}</span>
    </Form>
  );
}
