import { Button, Card, Checkbox, Form as PolarisForm, FormLayout, InlineStack, TextField } from "@shopify/polaris";
import type { Order, RefundFormData } from "../types";
import type { RefundFormState } from "../hooks/useRefundForm";

/** Amount, note and notification; submitting opens the confirmation, it sends nothing. */
export function RefundForm({
  order,
  form,
  busy,
  openAttemptSysId,
}: {
  order: Order;
  form: RefundFormState;
  busy: boolean;
  openAttemptSysId: RefundFormData["openAttemptSysId"];
}) {
  const { amount, setAmount, amountError, setAmountError, note, setNote, notify, setNotify, openReview } = form;
  return (
    <Card>
      <PolarisForm onSubmit={openReview} noValidate>
        <FormLayout>
          <TextField
            label={`Amount (${order.currency})`}
            name="amount"
            value={amount}
            onChange={(value) => {
              setAmount(value);
              setAmountError(undefined);
            }}
            error={amountError}
            autoComplete="off"
            inputMode="decimal"
            helpText={`At most ${order.refundable} ${order.currency}${order.currency !== order.shopCurrency ? `, the currency the customer paid in (the shop's is ${order.shopCurrency})` : ""}; checked with Shopify before anything is sent.`}
          />
          <TextField label="Note (optional)" name="note" value={note} onChange={setNote} autoComplete="off" multiline={2} />
          <Checkbox label="Notify the customer" name="notify" checked={notify} onChange={setNotify} />
          <InlineStack gap="200">
            <Button submit variant="primary" loading={busy} disabled={busy || Boolean(openAttemptSysId)}>
              Refund
            </Button>
          </InlineStack>
        </FormLayout>
      </PolarisForm>
    </Card>
  );
}
