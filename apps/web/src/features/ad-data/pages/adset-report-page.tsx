import { ReportScreen } from '../components/report-screen';
import { REPORT_SCREENS } from '../components/report-levels';

/** /advertising/group ad sets, their ads in a drawer. */
export default function Page() {
  return <ReportScreen config={REPORT_SCREENS.adset} />;
}
