export { complianceAction as action, complianceLoader as loader } from "../webhooks/compliance.server";
