import { ReportScreen } from '../components/report-screen';
import { REPORT_SCREENS } from '../components/report-levels';

/** /admin/advertising/group every ad set of the company. */
export default function Page() {
  return <ReportScreen config={REPORT_SCREENS.adminAdset} />;
}
