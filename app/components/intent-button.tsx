import { useNavigation } from "react-router";

/**
 * The submit button of one intent of a route's action, disabled and showing `busyLabel` while that
 * intent posts. `scope` narrows it to one of several forms on a page (e.g. `{ id: "12" }`).
 */
export function IntentButton({
  intent,
  label,
  busyLabel,
  className,
  scope = {},
}: {
  intent: string;
  label: string;
  busyLabel: string;
  className: string;
  scope?: Record<string, string>;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    Object.entries(scope).every(([name, value]) => navigation.formData?.get(name) === value) &&
    navigation.formData?.get("intent") === intent;
  return (
    <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}
