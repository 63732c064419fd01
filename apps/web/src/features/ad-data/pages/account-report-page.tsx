import { ReportScreen } from '../components/report-screen';
import { REPORT_SCREENS } from '../components/report-levels';

/** /advertising/account by ad account. */
export default function Page() {
  return <ReportScreen config={REPORT_SCREENS.account} />;
}
