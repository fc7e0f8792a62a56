# Declarations of cassino._core128: those of _core.pxd (mask_t is 128 bits there, through the
# CASSINO_MASK128 macro that setup.py sets for this extension).

include "_core.pxd"
