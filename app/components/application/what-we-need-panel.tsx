import { CalendarClock, Check, FileText, Plus, Trash2, Upload, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent, type Ref } from "react";
import { useFetcher, useRevalidator } from "react-router";
import { showActionToast, useActionToast } from "~/components/action-toast";
import { startDownload } from "~/components/admin/documents/use-document-links";
import type { LinkActionData } from "~/components/admin/documents/types";
import { UPLOAD_ACCEPT } from "~/components/apply/document-upload";
import { ProgressBar } from "~/components/apply/progress";
import { submitWithProgress } from "~/components/apply/submit-with-progress";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { controlClass, ErrorList, Textarea } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { errorToast } from "~/domain/action-result";
import { REQUEST_ITEM_KINDS, type ConversationSide, type RequestItemKind, CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import { formatDate, formatFileSize } from "~/domain/formats";
import { REQUEST_ITEM_KIND_LABELS } from "~/domain/labels";
import { documentProblem } from "~/domain/validation/application-constants";
import { conversationSchemas, usePreloadConversationSchemas } from "./conversation-schemas";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { isDocumentKind, isoDateAfter, REQUEST_DUE_DEFAULT_DAYS, REQUEST_DUE_MAX_DAYS, requestFormValues } from "~/domain/validation/conversation-rules";
import type { RequestActionData } from "~/domain/validation/requests";
import type { OwnDocumentLinkData } from "~/domain/views/dashboard";
import type { RequestItemDocument, RequestItemView } from "~/domain/views/application-page";
import { cn } from "~/utils/cn";
import { LabelledOptions } from "~/components/ui/labelled-options";

export type WhatWeNeedPanelProps = {
  applicationId: string;
  items: RequestItemView[];
  /** Whose page this is: the applicant answers items, staff request, accept and reject them. */
  side: ConversationSide;
  /** The application is still under review (requests can be made and answered). */
  open: boolean;
  timeZone: string;
};

const STATUS_STYLES: Record<RequestItemView["status"], string> = {
  requested: "border-amber-300 bg-amber-50 text-amber-900",
  received: "border-blue-300 bg-blue-50 text-blue-900",
  accepted: "border-green-300 bg-green-50 text-green-900",
  rejected: "border-red-300 bg-red-50 text-red-900",
};

/** The two action routes (resource routes; the panel posts to them with fetchers or, for files, XHR with progress). */
const requestsAction = (side: ConversationSide, applicationId: string) =>
  side === "staff" ? `/admin/applications/${applicationId}/requests` : `/dashboard/applications/${applicationId}/requests`;

/**
 * What We Need: the items the lender asked for on one application, with their status, the
 * note and due date, and the answers given. Both application pages render it: the applicant uploads a
 * document or replies to a question on each open item; staff Request Documents and Accept or Reject
 * each answer in review. Every change records a timeline event, which refreshes the other side live.
 */
export function WhatWeNeedPanel({ applicationId, items, side, open, timeZone }: WhatWeNeedPanelProps) {
  usePreloadConversationSchemas();
  const waiting = items.filter((i) => i.status === "requested" || i.status === "rejected").length;
  return (
    <Card data-testid="what-we-need">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle id="what-we-need-title">What We Need</CardTitle>
        {side === "staff" && open ? <RequestDocumentsDialog applicationId={applicationId} /> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {side === "applicant" && waiting > 0 && open ? (
          <p className="text-sm">
            {waiting === 1 ? "1 item needs" : `${waiting} items need`} your answer. Upload each document or reply to each question below.
          </p>
        ) : null}
        {items.length === 0 ? (
          <p className="text-muted-foreground">Nothing has been requested.</p>
        ) : (
          <ul aria-labelledby="what-we-need-title" className="space-y-3" data-testid="request-items">
            {items.map((item) => (
              <RequestItemRow key={item.id} item={item} applicationId={applicationId} side={side} open={open} timeZone={timeZone} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function RequestItemRow({ item, applicationId, side, open, timeZone }: { item: RequestItemView } & Omit<WhatWeNeedPanelProps, "items">) {
  const answerable = open && (item.status === "requested" || item.status === "rejected");
  // A document's answer takes more files while it is in review, up to the limit ("two most recent pay stubs").
  const moreFiles = open && item.status === "received" && item.fileCount < CONVERSATION_LIMITS.filesPerItem;
  // Held by the row, which outlives the forms: a reply, accept or reject changes the item's status, which
  // removes the form that posted it, and its answer (the toast) must still be shown.
  const fetcher = useFetcher<RequestActionData>();
  useActionToast(fetcher.data);
  const headingId = `request-item-${item.id}`;
  return (
    <li className="rounded-md border border-border p-3" data-status={item.status} data-kind={item.kind} data-testid="request-item" aria-labelledby={headingId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {item.kindLabel}
        </h3>
        <span className={cn("rounded-full border px-2.5 py-0.5 text-xs font-semibold", STATUS_STYLES[item.status])} data-testid="request-item-status">
          {item.statusLabel}
        </span>
      </div>
      {item.note ? <p className="mt-1 text-sm break-words whitespace-pre-line">{item.note}</p> : null}
      <p className={cn("mt-1 flex items-center gap-1.5 text-sm", item.overdue ? "font-semibold text-red-800" : "text-muted-foreground")}>
        <CalendarClock aria-hidden="true" className="size-4" />
        Due {formatDate(`${item.dueDate}T12:00:00Z`, "UTC")}
        {item.overdue ? " (past due)" : null}
      </p>
      {item.rejectionReason && item.status === "rejected" ? (
        <p className="mt-2 rounded-md bg-red-50 p-2 text-sm break-words whitespace-pre-line text-red-900" data-testid="rejection-reason">
          <span className="font-semibold">Reason: </span>
          {item.rejectionReason}
        </p>
      ) : null}
      {item.replyText ? (
        <div className="mt-2 text-sm">
          <p className="font-semibold">{side === "applicant" ? "Your answer" : "Applicant's answer"}</p>
          <p className="break-words whitespace-pre-line" data-testid="reply-text">
            {item.replyText}
          </p>
        </div>
      ) : null}
      {item.documents.length > 0 ? <ItemDocuments documents={item.documents} side={side} timeZone={timeZone} /> : null}
      {side === "applicant" && (answerable || moreFiles) ? (
        isDocumentKind(item.kind) ? (
          <UploadAnswer applicationId={applicationId} item={item} />
        ) : answerable ? (
          <ReplyAnswer applicationId={applicationId} item={item} fetcher={fetcher} />
        ) : null
      ) : null}
      {side === "staff" && open && item.status === "received" ? <ReviewAnswer applicationId={applicationId} item={item} fetcher={fetcher} /> : null}
    </li>
  );
}

/** The files uploaded for an item, each openable through a fresh 60-second signed link (audited). */
function ItemDocuments({ documents, side, timeZone }: { documents: RequestItemDocument[]; side: ConversationSide; timeZone: string }) {
  const fetcher = useFetcher<LinkActionData | OwnDocumentLinkData>();
  const handled = useRef(new Set<string>());
  useEffect(() => {
    const result = fetcher.data;
    if (!result || handled.current.has(result.nonce)) return;
    handled.current.add(result.nonce);
    if (!result.ok) showActionToast(result.toast);
    else {
      startDownload(result.link);
      showActionToast({ type: "success", title: "Download Started", description: result.link.fileName });
    }
  }, [fetcher.data]);
  const open = (documentId: string) => {
    if (side === "staff") void fetcher.submit({ intent: "link", documentId, disposition: "attachment" }, { method: "post", action: "/admin/documents" });
    else void fetcher.submit({ intent: "document-link", documentId }, { method: "post", action: "/dashboard" });
  };
  const pending = fetcher.state !== "idle" ? String(fetcher.formData?.get("documentId") ?? "") : null;
  return (
    <ul className="mt-2 flex flex-col gap-1 text-sm" aria-label="Uploaded files">
      {documents.map((d) => (
        <li key={d.id} className="flex flex-wrap items-center gap-2">
          <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
          <span className="min-w-0 [overflow-wrap:anywhere]">
            {d.fileName} ({formatFileSize(d.fileSize)}), {formatDate(d.uploadedAt, timeZone)}
            {d.current ? null : <span className="text-muted-foreground"> · earlier answer</span>}
          </span>
          <Button type="button" variant="link" size="sm" className="h-auto px-0" disabled={pending === d.id} onClick={() => open(d.id)}>
            {pending === d.id ? "Opening…" : "Download"}
            <span className="sr-only"> {d.fileName}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** Upload: the file is checked in the browser by content (as the server does) before anything is sent. */
function UploadAnswer({ applicationId, item }: { applicationId: string; item: RequestItemView }) {
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const revalidator = useRevalidator();
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | undefined>();

  const choose = async (file: File) => {
    setError(undefined);
    const problem = await documentProblem(item.kindLabel, file);
    if (problem) {
      setError(problem);
      showActionToast(errorToast("Upload failed", problem));
      return;
    }
    const form = new FormData();
    form.set("intent", "upload");
    form.set("itemId", item.id);
    form.set("file", file, file.name);
    setPercent(0);
    const result = await submitWithProgress(requestsAction("applicant", applicationId), form, setPercent);
    setPercent(null);
    const body = result.body as unknown as RequestActionData | null;
    if (result.status === 200 && body?.ok) {
      if (body.toast) showActionToast(body.toast);
      void revalidator.revalidate();
      return;
    }
    const message = body?.toast?.description ?? (result.status === 0 ? "The upload did not reach us. Check your connection and try again." : "Please try again.");
    setError(message);
    showActionToast(errorToast("Upload failed", message));
    // The item may have changed meanwhile (answered in another tab, the application decided).
    if (result.status === 409 || result.status === 404) void revalidator.revalidate();
  };

  const uploading = percent !== null;
  const adding = item.status === "received";
  return (
    <div className="mt-3 flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-semibold">
        {adding ? `Add another file to ${item.kindLabel}` : `Upload ${item.kindLabel}`}
        <span className="block font-normal text-muted-foreground" data-testid="request-upload-hint">
          PDF, JPG or PNG, up to 5 MB each; up to {CONVERSATION_LIMITS.filesPerItem} files
          {adding ? ` (${item.fileCount} of ${CONVERSATION_LIMITS.filesPerItem} sent)` : ""}.
        </span>
      </label>
      <input
        id={inputId}
        type="file"
        name="file"
        accept={UPLOAD_ACCEPT}
        disabled={uploading}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(
          controlClass,
          "h-auto cursor-pointer file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-3 file:py-1 file:font-semibold file:text-secondary-foreground",
        )}
        data-testid="request-upload-input"
        onChange={(event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          input.value = "";
          if (file) void choose(file);
        }}
      />
      {uploading ? (
        <div className="flex flex-col gap-1" data-testid="request-upload-progress">
          <p className="flex items-center gap-1.5 text-sm" aria-live="polite">
            <Upload aria-hidden="true" className="size-4" /> Uploading… {percent}%
          </p>
          <ProgressBar label={`Uploading ${item.kindLabel}`} percent={percent} barClassName="bg-primary duration-150" />
        </div>
      ) : null}
      <ErrorList id={errorId} errors={error} live />
    </div>
  );
}

type ItemFetcher = ReturnType<typeof useFetcher<RequestActionData>>;

/**
 * An item's form with one text (the reply, the reason): checked in the browser with its schema before
 * it posts to `action` (the server checks again with the same one). Gives the text's errors, the
 * browser's or else the server's, and the submit handler; `onRefused` runs when the browser refuses.
 */
function useCheckedItemForm(fetcher: ItemFetcher, field: "reply" | "reason", action: string, onRefused?: () => void) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const serverErrors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : undefined;
  const shown = errors[field] ?? serverErrors?.[field];
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const schemas = await conversationSchemas();
    const parsed = (field === "reply" ? schemas.replyItemSchema : schemas.rejectItemSchema).safeParse(requestFormValues(form));
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error));
      onRefused?.();
      return;
    }
    setErrors({});
    void fetcher.submit(form, { method: "post", action });
  };
  return { shown, submit };
}

/** Reply: the applicant's answer to a question item, in words. */
function ReplyAnswer({ applicationId, item, fetcher }: { applicationId: string; item: RequestItemView; fetcher: ItemFetcher }) {
  const id = useId();
  const { shown, submit } = useCheckedItemForm(fetcher, "reply", requestsAction("applicant", applicationId));
  return (
    <fetcher.Form method="post" action={requestsAction("applicant", applicationId)} className="mt-3 flex flex-col gap-2" onSubmit={(event) => void submit(event)} noValidate>
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="itemId" value={item.id} />
      <RequiredText id={`${id}-reply`} name="reply" label="Your answer" rows={3} maxLength={CONVERSATION_LIMITS.requestReplyMaxLength} className="min-h-20" errors={shown} />
      <PendingButton type="submit" pending={fetcher.state !== "idle"} icon={<Check aria-hidden="true" />} className="self-start">
        Reply
      </PendingButton>
    </fetcher.Form>
  );
}

/** A required text of the panel's forms (an answer, a reason): its label, the box, and its errors announced as they come. */
function RequiredText({
  id,
  name,
  label,
  rows,
  maxLength,
  className,
  errors,
  textareaRef,
}: {
  id: string;
  name: string;
  label: string;
  rows: number;
  maxLength: number;
  className: string;
  errors?: string[];
  textareaRef?: Ref<HTMLTextAreaElement>;
}) {
  return (
    <>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <Textarea
        ref={textareaRef}
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        required
        aria-invalid={errors ? true : undefined}
        aria-describedby={`${id}-error`}
        className={className}
      />
      <ErrorList id={`${id}-error`} errors={errors} live />
    </>
  );
}

/** Accept or Reject (with the reason the applicant will read) of an answer in review. */
function ReviewAnswer({ applicationId, item, fetcher }: { applicationId: string; item: RequestItemView; fetcher: ItemFetcher }) {
  const [rejecting, setRejecting] = useState(false);
  const id = useId();
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (rejecting) reasonRef.current?.focus();
  }, [rejecting]);
  const action = requestsAction("staff", applicationId);
  const busy = fetcher.state !== "idle";
  const intent = busy ? fetcher.formData?.get("intent") : null;
  const { shown, submit: reject } = useCheckedItemForm(fetcher, "reason", action, () => reasonRef.current?.focus());

  return (
    <div className="mt-3 flex flex-col gap-2">
      {!rejecting ? (
        <div className="flex flex-wrap gap-2">
          <PendingButton
            type="button"
            size="sm"
            pending={intent === "accept"}
            disabled={busy}
            icon={<Check aria-hidden="true" />}
            onClick={() => void fetcher.submit({ intent: "accept", itemId: item.id }, { method: "post", action })}
          >
            Accept
            <span className="sr-only"> {item.kindLabel}</span>
          </PendingButton>
          <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => setRejecting(true)}>
            <X aria-hidden="true" />
            Reject
            <span className="sr-only"> {item.kindLabel}</span>
          </Button>
        </div>
      ) : (
        <fetcher.Form method="post" action={action} onSubmit={(event) => void reject(event)} noValidate className="flex flex-col gap-2">
          <input type="hidden" name="intent" value="reject" />
          <input type="hidden" name="itemId" value={item.id} />
          <RequiredText
            textareaRef={reasonRef}
            id={`${id}-reason`}
            name="reason"
            label="Reason for rejecting (the applicant sees it)"
            rows={2}
            maxLength={CONVERSATION_LIMITS.requestNoteMaxLength}
            className="min-h-16"
            errors={shown}
          />
          <div className="flex flex-wrap gap-2">
            <PendingButton type="submit" size="sm" variant="destructive" pending={intent === "reject"} icon={<X aria-hidden="true" />}>
              Reject
              <span className="sr-only"> {item.kindLabel}</span>
            </PendingButton>
            <Button type="button" size="sm" variant="ghost" disabled={busy} onClick={() => setRejecting(false)}>
              Cancel
            </Button>
          </div>
        </fetcher.Form>
      )}
    </div>
  );
}

type DraftItem = { key: number; kind: RequestItemKind | ""; note: string };

/** Request Documents: one or more items (kind and note) and the date by which they are needed. */
function RequestDocumentsDialog({ applicationId }: { applicationId: string }) {
  const fetcher = useFetcher<RequestActionData>();
  useActionToast(fetcher.data);
  const [open, setOpen] = useState(false);
  const nextKey = useRef(1);
  const [drafts, setDrafts] = useState<DraftItem[]>([{ key: 0, kind: "", note: "" }]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const id = useId();
  const [handled, setHandled] = useState<RequestActionData | undefined>();
  const today = isoDateAfter(0);

  // Each answer once, while rendering (no effect): a success closes the dialog and clears it for next time.
  const data = fetcher.data;
  if (data && fetcher.state === "idle" && data !== handled) {
    setHandled(data);
    if (data.ok) {
      setOpen(false);
      setDrafts([{ key: 0, kind: "", note: "" }]);
      setErrors({});
    } else if (data.fieldErrors) setErrors(data.fieldErrors);
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { requestDocumentsSchema } = await conversationSchemas();
    const parsed = requestDocumentsSchema().safeParse(requestFormValues(form));
    if (!parsed.success) {
      setErrors(issuesToFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    void fetcher.submit(form, { method: "post", action: requestsAction("staff", applicationId) });
  };
  const update = (key: number, patch: Partial<DraftItem>) => setDrafts((list) => list.map((d) => (d.key === key ? { ...d, ...patch } : d)));

  return (
    <ModalDialog
      open={open}
      onOpenChange={setOpen}
      opener={{ icon: Plus, type: "button", size: "sm" }}
      title="Request Documents"
      description="The applicant is e-mailed that information is needed by the due date (the notice of incompleteness) and sees each item under What We Need."
      testId="request-documents-dialog"
    >
      <fetcher.Form method="post" action={requestsAction("staff", applicationId)} onSubmit={(event) => void submit(event)} noValidate className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="intent" value="request" />
        <ol className="flex flex-col gap-4">
          {drafts.map((draft, index) => (
            <li key={draft.key} className="flex flex-col gap-2 rounded-md border border-border p-3" data-testid="request-draft-item">
              <div className="flex items-center justify-between gap-2">
                <span className="text-sm font-semibold">Item {index + 1}</span>
                {drafts.length > 1 ? (
                  <Button type="button" variant="ghost" size="sm" onClick={() => setDrafts((list) => list.filter((d) => d.key !== draft.key))}>
                    <Trash2 aria-hidden="true" />
                    Remove item {index + 1}
                  </Button>
                ) : null}
              </div>
              <label htmlFor={`${id}-kind-${draft.key}`} className="text-sm font-semibold">
                What is needed
              </label>
              <select
                id={`${id}-kind-${draft.key}`}
                name="kind"
                required
                className={controlClass}
                value={draft.kind}
                onChange={(e) => update(draft.key, { kind: e.currentTarget.value as RequestItemKind })}
              >
                <option value="">Choose…</option>
                <LabelledOptions values={REQUEST_ITEM_KINDS} labels={REQUEST_ITEM_KIND_LABELS} />
              </select>
              <label htmlFor={`${id}-note-${draft.key}`} className="text-sm font-semibold">
                {draft.kind === "question" ? (
                  "Your question"
                ) : (
                  <>
                    Note to the applicant <span className="font-normal text-muted-foreground">(optional)</span>
                  </>
                )}
              </label>
              <Textarea
                id={`${id}-note-${draft.key}`}
                name="note"
                rows={2}
                maxLength={CONVERSATION_LIMITS.requestNoteMaxLength}
                className="min-h-16"
                value={draft.note}
                onChange={(e) => update(draft.key, { note: e.currentTarget.value })}
              />
            </li>
          ))}
        </ol>
        {drafts.length < CONVERSATION_LIMITS.requestItemsMax ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="self-start"
            onClick={() => setDrafts((list) => [...list, { key: nextKey.current++, kind: "", note: "" }])}
          >
            <Plus aria-hidden="true" />
            Add item
          </Button>
        ) : null}
        <ErrorList id={`${id}-items-error`} errors={errors.items} live />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-due`} className="text-sm font-semibold">
            Due date
          </label>
          <input
            id={`${id}-due`}
            name="dueDate"
            type="date"
            required
            min={today}
            max={isoDateAfter(REQUEST_DUE_MAX_DAYS)}
            defaultValue={isoDateAfter(REQUEST_DUE_DEFAULT_DAYS)}
            aria-invalid={errors.dueDate ? true : undefined}
            aria-describedby={`${id}-due-error`}
            className={controlClass}
          />
          <ErrorList id={`${id}-due-error`} errors={errors.dueDate} live />
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <DialogCloseButton />
          <PendingButton type="submit" pending={fetcher.state !== "idle"} icon={<Plus aria-hidden="true" />}>
            Send Request
          </PendingButton>
        </div>
      </fetcher.Form>
    </ModalDialog>
  );
}
