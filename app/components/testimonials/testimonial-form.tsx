import { LogIn, Send } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { ErrorList, InputField, showToast, SubmitButton, TextareaField, useFieldErrors, useFormFetcher } from "~/components/ui/form";
import { checkTestimonial, TESTIMONIAL_FIELD_LIMITS, TESTIMONIAL_FIELDS, TESTIMONIAL_TOASTS, type TestimonialActionData } from "~/domain/validation/testimonial";
import { StarRatingInput } from "./star-rating-input";

type Values = { fullName: string; displayName: string; role: string; location: string; content: string };
const EMPTY: Values = { fullName: "", displayName: "", role: "", location: "", content: "" };

/**
 * 'Share Your Experience' (docs/requirements.md §2, §5, §6, §9). Visitors may fill it in, but submitting asks them to
 * sign in ('Authentication Required'); the server refuses them too (401). The same schema checks the
 * form here and in the action. On success the fields and the rating reset.
 */
export function TestimonialForm({ signedIn, actionData }: { signedIn: boolean; actionData?: TestimonialActionData }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [rating, setRating] = useState(0);
  const [values, setValues] = useState<Values>(EMPTY);
  const { errors, setErrors, show, clear } = useFieldErrors(formRef, TESTIMONIAL_FIELDS);

  // Each new answer (fetcher, or the action's data without JavaScript) is handled once.
  const { fetcher, pending } = useFormFetcher<TestimonialActionData>(actionData, (data) => {
    if (data.ok) {
      setRating(0);
      setValues(EMPTY);
      setErrors({});
      formRef.current?.reset();
    } else if (data.fieldErrors) {
      show(data.fieldErrors);
    }
  });

  /** A field's id, name, limit, value and errors; editing it clears its errors. */
  const bind = (name: keyof Values) => ({
    id: `${id}-${name}`,
    name,
    maxLength: TESTIMONIAL_FIELD_LIMITS[name],
    value: values[name],
    errors: errors[name],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      setValues((v) => ({ ...v, [name]: value }));
      clear(name);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    if (!signedIn) {
      event.preventDefault();
      showToast(TESTIMONIAL_TOASTS.authRequired);
      return;
    }
    const checked = checkTestimonial({ ...values, rating: rating || "" });
    if (checked.ok) {
      setErrors({});
      return; // fetcher.Form posts the form.
    }
    event.preventDefault();
    show(checked.fieldErrors);
    showToast(checked.toast);
  }

  const ratingLabelId = `${id}-rating-label`;
  const ratingErrorId = `${id}-rating-error`;

  return (
    <fetcher.Form ref={formRef} method="post" action="/testimonials" noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      {!signedIn ? (
        <p className="mb-4 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-navy-200 bg-navy-50 p-4 text-sm text-slate-800">
          <LogIn aria-hidden="true" className="size-4 text-primary" />
          <span>You need an account to submit a testimonial.</span>
          <Link to="/auth?redirectTo=%2Ftestimonials" className="font-semibold text-link underline underline-offset-4">
            Sign in or create an account
          </Link>
        </p>
      ) : null}
      <p className="mb-2 text-sm text-muted-foreground">All fields are required unless marked optional.</p>

      <div className="flex flex-col gap-2">
        <span id={ratingLabelId} className="text-sm leading-none font-medium text-foreground">
          Your Rating
        </span>
        <StarRatingInput
          name="rating"
          value={rating}
          onChange={(n) => {
            setRating(n);
            clear("rating");
          }}
          labelId={ratingLabelId}
          errorId={ratingErrorId}
          invalid={Boolean(errors.rating?.length)}
        />
        <ErrorList id={ratingErrorId} errors={errors.rating} className="-mt-1" />
      </div>

      <div className="grid gap-x-6 sm:grid-cols-2">
        <InputField label="Full Name" autoComplete="name" required {...bind("fullName")} />
        <InputField label="Display Name (optional)" hint="Shown with your review. Leave blank to use your full name." autoComplete="nickname" {...bind("displayName")} />
        <InputField label="Role" hint="For example: Small Business Owner" autoComplete="organization-title" required {...bind("role")} />
        <InputField label="Location (optional)" hint="For example: Austin, TX" autoComplete="address-level2" {...bind("location")} />
      </div>

      <TextareaField
        label="Your Review"
        hint={`${values.content.length}/${TESTIMONIAL_FIELD_LIMITS.content} characters`}
        required
        rows={5}
        className="min-h-32"
        {...bind("content")}
      />

      <p className="text-xs text-muted-foreground">Testimonials are reviewed by our team before they are published.</p>

      <SubmitButton
        pending={pending}
        icon={Send}
        label="Submit Testimonial"
        pendingLabel="Submitting..."
        className="mt-2 sm:w-auto sm:self-start"
        size="lg"
      />
    </fetcher.Form>
  );
}
