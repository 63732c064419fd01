import { OperationLogScreen } from '../components/operation-log-screen';

/** /advertising/copy-log: the operation log (all). */
export default function Page() {
  return <OperationLogScreen log="all" />;
}
