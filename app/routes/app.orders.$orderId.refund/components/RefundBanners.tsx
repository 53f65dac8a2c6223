import { Banner } from "@shopify/polaris";
import { isRiskCode } from "../../../refunds/risk";
import type { ActionResult, RefundFormData } from "../types";
import type { Review } from "../hooks/useRefundForm";

interface Props {
  result: ActionResult;
  /** The side card's records, the newest read: the request's record is on them as soon as the action answers. */
  records: RefundFormData["records"];
  review: Review | null;
  openAttemptSysId: RefundFormData["openAttemptSysId"];
  duplicateOnOrder: RefundFormData["duplicateOnOrder"];
  recentRefund: RefundFormData["recentRefund"];
}

/** The action's answer (unless its field or the confirmation shows it) and what stands in the way of a new refund. */
export function RefundBanners({ result, records, review, openAttemptSysId, duplicateOnOrder, recentRefund }: Props) {
  const fieldErrorShown = Boolean(result && !result.ok && "fieldErrors" in result && result.fieldErrors?.amount);
  // A refund waiting for a second yes is answered in its confirmation while that is open.
  const askedInConfirmation = result?.ok === false && (result.code === "RECENT_REFUND" || isRiskCode(result.code)) && review;
  const banner = result && !fieldErrorShown && !askedInConfirmation ? result : null;
  return (
    <>
      {banner && !banner.ok && banner.code === "AWAITING_APPROVAL" ? (
        <AwaitingApproval message={banner.message} records={records} />
      ) : banner ? (
        <Banner
          tone={
            banner.ok
              ? "success"
              : banner.code === "OUTCOME_UNKNOWN" || banner.code === "OUTCOME_PENDING" || banner.code === "RECENT_REFUND" || isRiskCode(banner.code)
                ? "warning"
                : "critical"
          }
          title={banner.message}
        />
      ) : null}
      {openAttemptSysId ? (
        <Banner tone="warning" title={`${openAttemptSysId} has no answer from Shopify yet`}>
          <p>A new refund on this order waits until {openAttemptSysId} is settled, so that a customer is never refunded twice.</p>
        </Banner>
      ) : null}
      {duplicateOnOrder ? (
        <Banner tone="critical" title="Do not retry on this order">
          <p>Shopify holds two refunds of the same amount on this order, made minutes apart. Check it in Shopify admin before refunding again.</p>
        </Banner>
      ) : null}
      {recentRefund && !openAttemptSysId ? (
        <Banner tone="warning" title="This order was refunded minutes ago">
          <p>{recentRefund.message} Another refund needs your explicit confirmation.</p>
        </Banner>
      ) : null}
    </>
  );
}

/**
 * Over one of the shop's limits: not an error. The refund was recorded and went for approval; the
 * server's message says why and who can approve it, and the banner opens the request.
 */
function AwaitingApproval({ message, records }: { message: string; records: RefundFormData["records"] }) {
  // The request's record is among the records (the message starts with its RF- number).
  const record = records.find((r) => r.approval && message.startsWith(`${r.sysId} `));
  return (
    <div data-awaiting-approval="">
      <Banner
        tone="info"
        title="Sent for approval: nothing was refunded yet"
        action={record?.approval ? { content: `Open the request for ${record.sysId}`, url: `/app/approvals/${record.approval.requestId}` } : undefined}
      >
        <p>{message}</p>
      </Banner>
    </div>
  );
}
