import { Form } from "react-router";
import { IntentButton } from "../intent-button";
import { secondaryButton } from "../ui";

/** For owners who answer outside the product: counts as the reply for the refund promise. */
export function RepliedByEmailForm({ deadline }: { deadline: string | null }) {
  return (
    <Form method="post" className="mt-8 rounded-lg border border-slate-700 p-4">
      <p className="text-slate-300">
        Answered the buyer by email instead? Say so here
        {deadline ? ` before ${deadline}` : ""}: the buyer then keeps their inquiry with you, and your reply counts
        toward the reply time shown on your domain pages.
      </p>
      <IntentButton
        intent="replied-by-email"
        label="I have replied by email"
        busyLabel="Saving..."
        className={`${secondaryButton} mt-4`}
      />
    </Form>
  );
}
