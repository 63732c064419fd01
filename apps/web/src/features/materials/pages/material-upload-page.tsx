import { MaterialsScreen } from './materials-screen';

/** /material/upload 上传素材: upload and the whole library. */
export default function MaterialUploadPage() {
  return <MaterialsScreen mode="upload" />;
}
