import { Form, useNavigation } from "react-router";
import { secondaryButton } from "../ui";

/** For owners who answer outside the product: counts as the reply for the refund promise. */
export function RepliedByEmailForm({ deadline }: { deadline: string | null }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "replied-by-email";
  return (
    <Form method="post" className="mt-8 rounded-lg border border-slate-700 p-4">
      <p className="text-slate-300">
        Answered the buyer by email instead? Say so here
        {deadline ? ` before ${deadline}` : ""}: the buyer then keeps their
        inquiry with you, and your reply counts toward the reply time shown on
        your domain pages.
      </p>
      <button
        type="submit"
        name="intent"
        value="replied-by-email"
        className={`${secondaryButton} mt-4`}
        disabled={busy}
      >
        {busy ? "Saving..." : "I have replied by email"}
      </button>
    </Form>
  );
}
