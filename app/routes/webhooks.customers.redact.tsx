export { complianceAction as action, complianceLoader as loader } from "../privacy/compliance.server";
