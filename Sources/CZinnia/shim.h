/* Zinnia recognises handwritten CJK characters from their strokes (SVM over stroke
 * features); Scribble's recogniser helper uses its C API with the Tegaki models. */
#include <zinnia.h>
