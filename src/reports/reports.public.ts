/** What other features may use of reports: the overview figures over a range (the assistant's reports tool). */
export { overviewRead, overviewReport, reportRange } from "./reports.service";
