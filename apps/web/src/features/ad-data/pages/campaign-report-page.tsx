import { ReportScreen } from '../components/report-screen';
import { REPORT_SCREENS } from '../components/report-levels';

/** /advertising/campaign campaigns. */
export default function Page() {
  return <ReportScreen config={REPORT_SCREENS.campaign} />;
}
