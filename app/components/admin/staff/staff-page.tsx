import type { ComponentProps, ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { useActionToast } from "~/components/action-toast";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { InputField } from "~/components/ui/form";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { formatDateTime } from "~/domain/formats";
import { STAFF_ROLE_LABELS } from "~/domain/staff-permissions";
import {
  STAFF_ROLE_OPTIONS,
  type StaffActionData,
  type StaffOverview,
} from "~/domain/validation/staff";

/**
 * /admin/staff (admins only): who is on the staff, their role, status and second factor, with
 * the per-row actions (Change Role, Deactivate, Reset Two-Factor, Cancel Invitation) and Invite Staff.
 * Every button posts a plain form with its `intent`, so the page works without JavaScript; the server
 * refuses whatever the page hides (one's own reset, the last admin).
 */

const selectClass =
  "h-10 rounded-md border border-input bg-background px-2 text-sm focus-visible:outline-3 focus-visible:outline-offset-1";
const cell = "px-3 py-2 align-top";

/** The role picker (name "role"), every staff role offered. */
function RoleSelect(props: ComponentProps<"select">) {
  return (
    <select {...props} name="role" className={selectClass}>
      {STAFF_ROLE_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/**
 * A row action: a plain post of its `intent` and the one id it acts on (so it works without JavaScript),
 * any fields it needs, then its button, whose hidden words name the row for screen readers.
 */
function IntentForm({
  intent,
  name,
  value,
  className,
  variant,
  disabled,
  label,
  named,
  children,
}: {
  intent: string;
  name: string;
  value: string;
  className?: string;
  variant: "outline" | "destructive";
  disabled: boolean;
  label: string;
  named: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={value} />
      {children}
      <Button type="submit" variant={variant} disabled={disabled}>
        {label}
        <span className="sr-only">{named}</span>
      </Button>
    </Form>
  );
}

function InviteForm({
  actionData,
}: {
  actionData: StaffActionData | undefined;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "invite";
  const errors =
    actionData?.intent === "invite" && !actionData.ok
      ? actionData.fieldErrors
      : undefined;
  return (
    <section
      aria-labelledby="invite-staff-heading"
      className="rounded-xl border border-border p-5"
    >
      <h2
        id="invite-staff-heading"
        className="text-lg font-semibold text-primary"
      >
        Invite Staff
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        The invitation link is valid for 72 hours: they set a password, then set
        up two-factor authentication.
      </p>
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-3">
        <input type="hidden" name="intent" value="invite" />
        <InputField
          id="invite-name"
          label="Full Name"
          markRequired
          errors={errors?.name}
          name="name"
          autoComplete="off"
          maxLength={100}
        />
        <InputField
          id="invite-email"
          label="E-mail"
          markRequired
          errors={errors?.email}
          name="email"
          type="email"
          autoComplete="off"
          maxLength={254}
        />
        <Field id="invite-role" label="Role" required errors={errors?.role}>
          {(a11y) => <RoleSelect {...a11y} defaultValue="loan_officer" />}
        </Field>
        <div className="sm:col-span-3">
          <Button type="submit" disabled={pending}>
            {pending ? "Sending…" : "Invite Staff"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

export function StaffPage({
  data,
  actionData,
  selfId,
}: {
  data: StaffOverview;
  actionData: StaffActionData | undefined;
  selfId: string;
}) {
  useActionToast(actionData);
  const timeZone = useDisplayTimeZone();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <AdminShell
      title="Staff"
      description="Invite staff, change roles, deactivate accounts and reset another staff member's two-factor authentication."
    >
      <div className="flex flex-col gap-8">
        <section>
          <h2
            id="staff-list-heading"
            className="mb-3 text-lg font-semibold text-primary"
          >
            Staff Members
          </h2>
          <ScrollingTable
            labelledBy="staff-list-heading"
            tableClassName="min-w-[56rem]"
            testId="staff-table"
          >
            <TableHead
              columns={[
                "Name",
                "E-mail",
                "Role",
                "Status",
                "Second factor",
                "Actions",
              ]}
              className="bg-slate-50"
              cellClassName="px-3 py-2 font-semibold text-slate-900"
            />
            <tbody>
              {data.members.map((m) => {
                const own = m.userId === selfId;
                const active = !m.deactivatedAt;
                return (
                  <tr
                    key={m.userId}
                    className="border-t border-border"
                    data-testid="staff-row"
                    data-email={m.email}
                  >
                    <td className={cell}>
                      {m.name}
                      {own ? (
                        <span className="text-slate-700"> (you)</span>
                      ) : null}
                    </td>
                    <td className={`${cell} break-all`}>{m.email}</td>
                    <td className={cell}>{STAFF_ROLE_LABELS[m.role]}</td>
                    <td className={cell}>
                      {active ? "Active" : "Deactivated"}
                    </td>
                    <td className={cell}>
                      {m.mfaEnrolled ? "Enrolled" : "Not enrolled"}
                    </td>
                    <td className={cell}>
                      {active ? (
                        <div className="flex flex-wrap items-end gap-2">
                          <IntentForm
                            intent="change-role"
                            name="userId"
                            value={m.userId}
                            className="flex items-end gap-2"
                            variant="outline"
                            disabled={busy}
                            label="Change Role"
                            named={<> for {m.name}</>}
                          >
                            <label className="flex flex-col text-xs font-medium text-slate-900">
                              Role
                              <RoleSelect defaultValue={m.role} />
                            </label>
                          </IntentForm>
                          {own ? null : (
                            <>
                              <IntentForm intent="deactivate" name="userId" value={m.userId} variant="destructive" disabled={busy} label="Deactivate" named={<> {m.name}</>} />
                              <IntentForm intent="reset-mfa" name="userId" value={m.userId} variant="outline" disabled={busy} label="Reset Two-Factor" named={<> for {m.name}</>} />
                            </>
                          )}
                        </div>
                      ) : (
                        <span className="text-slate-700">No actions</span>
                      )}
                    </td>
                  </tr>
                );
              })}
              {data.invitations.map((i) => (
                <tr
                  key={i.id}
                  className="border-t border-border"
                  data-testid="invitation-row"
                  data-email={i.email}
                >
                  <td className={cell}>{i.name}</td>
                  <td className={`${cell} break-all`}>{i.email}</td>
                  <td className={cell}>{STAFF_ROLE_LABELS[i.role]}</td>
                  <td className={cell}>
                    {i.expired ? "Invited (expired " : "Invited (expires "}
                    <time dateTime={i.expiresAt}>
                      {formatDateTime(i.expiresAt, timeZone, { zone: true })}
                    </time>
                    )
                  </td>
                  <td className={cell}>Not enrolled</td>
                  <td className={cell}>
                    <IntentForm
                      intent="cancel-invitation"
                      name="invitationId"
                      value={i.id}
                      variant="outline"
                      disabled={busy}
                      label="Cancel Invitation"
                      named={<> for {i.email}</>}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </section>
        <InviteForm actionData={actionData} />
      </div>
    </AdminShell>
  );
}
