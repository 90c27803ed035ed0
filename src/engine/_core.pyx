# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
include "crosswise.pxi"
